/**
 * Every Redis key and channel the service uses, all under one prefix. BullMQ's own keys live under
 * `<prefix>:repair:` (the queue name), which none of these collide with.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}
  request(app: string, requestId: string) { return `${this.prefix}:req:${app}:${requestId}`; }
  bug(fp: string) { return `${this.prefix}:bug:${fp}`; }
  bugCases(fp: string) { return `${this.prefix}:bug:${fp}:cases`; }
  appBugs(app: string) { return `${this.prefix}:app:${app}:bugs`; }
  block(app: string, blockId: string, sourceHash: string) { return `${this.prefix}:block:${app}:${sourceHash}:${blockId}`; }
  recorded(app: string, blockId: string, sourceHash: string) { return `${this.prefix}:block:${app}:${sourceHash}:${blockId}:recorded`; }
  appBlocks(app: string) { return `${this.prefix}:app:${app}:blocks`; }
  apps() { return `${this.prefix}:apps`; }
  blockVersion(app: string, blockId: string) { return `${this.prefix}:app:${app}:version:${blockId}`; }
  patchPrefix() { return `${this.prefix}:patch:`; }
  patch(id: string) { return `${this.prefix}:patch:${id}`; }
  appPatches(app: string) { return `${this.prefix}:app:${app}:patches`; }
  revision(app: string) { return `${this.prefix}:app:${app}:revision`; }
  report(fp: string, round: string | number) { return `${this.prefix}:report:${fp}:${round}`; }
  policies() { return `${this.prefix}:policies`; }
  audit() { return `${this.prefix}:audit`; }
  publicKey() { return `${this.prefix}:public-key`; }
  /** Pub/sub channel of manifest and patch changes, shared by every daemon. */
  events() { return `${this.prefix}:events`; }
  /** Member of the app's blocks set: source hash (fixed length) first, so the id may hold any character. */
  blockMember(blockId: string, sourceHash: string) { return `${sourceHash}:${blockId}`; }
  parseBlockMember(member: string) { return { sourceHash: member.slice(0, 64), blockId: member.slice(65) }; }
}
