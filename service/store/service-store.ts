import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type { CallWorld } from '../../core/world.ts';
import type { ManifestPatch, PatchMode, PatchStatus } from '../../core/wire.ts';
import type { OutcomeDecision as LifecycleOutcome, OutcomeRules } from '../patch-lifecycle.ts';
import { RedisKeys } from './redis-keys.ts';

const lua = (name: string) => readFileSync(new URL(`./lua/${name}.lua`, import.meta.url), 'utf8');

const SCRIPTS = {
  ingestFailure: { numberOfKeys: 7, lua: lua('ingest-failure-7') },
  addRecordedCalls: { numberOfKeys: 4, lua: lua('add-recorded-calls-4') },
  reservePatchVersion: { numberOfKeys: 2, lua: lua('reserve-patch-version-2') },
  storePatch: { numberOfKeys: 4, lua: lua('store-patch-4') },
  applyOutcome: { numberOfKeys: 3, lua: lua('apply-outcome-3') },
  setPatchStatus: { numberOfKeys: 3, lua: lua('set-patch-status-3') },
  setPatchMode: { numberOfKeys: 2, lua: lua('set-patch-mode-2') },
  readManifest: { numberOfKeys: 2, lua: lua('read-manifest-2') },
  requeueBug: { numberOfKeys: 1, lua: lua('requeue-bug-1') },
  setBugStatus: {
    numberOfKeys: 1,
    // Only the worker of the bug's current round may change it (a stale job must not). The change
    // is announced, so a long poll held for the bug answers at once when no patch will come.
    lua: `if redis.call('HGET', KEYS[1], 'round') ~= ARGV[1] then return 0 end
          redis.call('HSET', KEYS[1], 'status', ARGV[2], 'updatedAt', ARGV[3])
          if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'reason', ARGV[4]) else redis.call('HDEL', KEYS[1], 'reason') end
          if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'unseen', ARGV[6]) end
          local h = redis.call('HMGET', KEYS[1], 'app', 'fingerprint')
          redis.call('PUBLISH', ARGV[5], cjson.encode({ type = 'bug-status', app = h[1], fingerprint = h[2], status = ARGV[2] }))
          return 1`,
  },
} as const;

type ScriptName = keyof typeof SCRIPTS;
type ScriptRunner = Record<ScriptName, (...args: (string | number)[]) => Promise<unknown>>;

/** What each means, and whether a patch may still come: service/bug-status.ts. */
export type BugStatus = 'new' | 'repairing' | 'patched' | 'unpatched' | 'failed' | 'rolled-back' | 'rejected' | 'cannot-see';

export interface BugRecord {
  fingerprint: string;
  app: string;
  blockId: string;
  sourceHash: string;
  errorName: string;
  /** Normalised message (quoted values and numbers masked). */
  message: string;
  firstMessage: string;
  topFrame: string;
  stack: string;
  status: BugStatus;
  round: number;
  count: number;
  firstSeen: number;
  lastSeen: number;
  patchId?: string;
  patchVersion?: number;
  /** The outside names the block was given with (`uses`), sorted; part of the fingerprint. */
  uses?: string[];
  /** Status `cannot-see`: the names the block reads that suture cannot see. */
  unseen?: string[];
  /** Why the status is what it is, when no patch will come (see service/bug-status.ts). */
  reason?: string;
}

export interface BlockRecord {
  app: string;
  blockId: string;
  sourceHash: string;
  source: string;
  description: string;
  failures: number;
  recorded: number;
  firstSeen: number;
  lastSeen: number;
}

/** A failing input as stored in a bug's case set. */
export interface StoredFailureCase {
  args: unknown[];
  /** `args` are the inputs on entry, or as the failed call left them (the SDK's FailureReport.inputs; absent from older SDKs). */
  inputs?: 'entry' | 'after-throw';
  at: string;
  instanceId: string;
  /** The failure came from running this patch (the input counts against it). */
  patchId?: string;
  error: { name: string; message: string };
  /** The `uses` values, calls made before the throw and receiver of the failing call (core/world.ts). */
  world?: CallWorld;
}

export interface StoredRecordedCall {
  args: unknown[];
  result: unknown;
  argsAfter: unknown[];
  at: string;
  /** The world of the call (core/world.ts). */
  world?: CallWorld;
}

export interface PatchRecord extends ManifestPatch {
  step: number;
  passed: number;
  threw: number;
  stepPassed: number;
  stepThrew: number;
  /** Shadow runs (fallback mode) that agreed with the block / disagreed. */
  agreed: number;
  disagreed: number;
  createdAt: number;
  updatedAt: number;
}

export type PatchDoc = Omit<ManifestPatch, 'status' | 'rollout'>;

export interface AuditEntry {
  at: string;
  actor: string;
  action: string;
  target: string;
  detail?: Record<string, unknown>;
}

/** One failure report as the ingest script stores it. */
export interface FailureRecord {
  app: string; requestId: string; requestIdTtl: number; now: number; blockId: string; sourceHash: string;
  description: string; source: string; errorName: string; message: string; firstMessage: string; frame: string;
  stack: string; caseHash: string; caseJson: string; maxCases: number; fingerprint: string;
  /** The block's `uses` names (sorted) and the outside names it reads that are not among them. */
  uses?: readonly string[]; unseen?: readonly string[];
  /** Stored as the bug's reason when `unseen` is not empty. */
  cannotSee?: string;
}

export interface StoredFailure {
  /** False for a request id seen before: nothing was changed. */
  fresh: boolean;
  status: BugStatus | 'requeue';
  round: number;
  newCase: boolean;
  /** BullMQ already holds the job of this round (only known when given the job key prefix). */
  jobExists: boolean;
}

/** What an outcome report did (the lifecycle table's decisions), or 'missing' for an unknown patch. */
export type OutcomeDecision = LifecycleOutcome | 'missing';

/** The counts of one outcome report entry. */
export interface OutcomeCounts {
  passed: number;
  threw: number;
  agreed?: number;
  disagreed?: number;
}

const num = (v: string | undefined) => (v === undefined ? 0 : Number(v));

/**
 * The service's state in Redis (everything but BullMQ's queue): bugs and their case sets, blocks
 * and recorded calls, patches and manifests, policies and the audit log. Multi-key changes are
 * Lua scripts, so several daemons and workers can share one Redis.
 */
export class ServiceStore {
  readonly keys: RedisKeys;
  readonly #scripts: ScriptRunner;

  constructor(
    readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new RedisKeys(prefix);
    for (const [name, s] of Object.entries(SCRIPTS)) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: s.numberOfKeys, lua: s.lua });
    }
    this.#scripts = redis as unknown as ScriptRunner;
  }

  async ingestFailure(p: FailureRecord, jobKeyPrefix = ''): Promise<StoredFailure> {
    const [r] = await this.ingestFailures([p], jobKeyPrefix);
    if (r instanceof Error) throw r;
    return r;
  }

  /**
   * Stores many failure reports in one pipelined round trip (one script call each, run in order, so
   * a request id repeated within the batch counts once). Each entry is the report's result or the
   * error that report got; a failure of the whole round trip rejects.
   */
  async ingestFailures(records: readonly FailureRecord[], jobKeyPrefix = ''): Promise<(StoredFailure | Error)[]> {
    const k = this.keys;
    const pipe = this.redis.pipeline() as unknown as ScriptRunner & { exec(): Promise<[Error | null, unknown][] | null> };
    for (const p of records) {
      void pipe.ingestFailure(
        k.request(p.app, p.requestId), k.bug(p.fingerprint), k.bugCases(p.fingerprint), k.appBugs(p.app),
        k.block(p.app, p.blockId, p.sourceHash), k.appBlocks(p.app), k.apps(),
        p.requestIdTtl, p.now, p.app, p.blockId, p.sourceHash, p.description, p.source, p.errorName, p.message, p.frame,
        p.caseHash, p.caseJson, p.maxCases, p.fingerprint, k.blockMember(p.blockId, p.sourceHash), p.firstMessage, p.stack,
        jobKeyPrefix, (p.uses ?? []).join(','), (p.unseen ?? []).join(','), p.cannotSee ?? '',
      );
    }
    const rows = (await pipe.exec()) ?? [];
    return records.map((_, i) => {
      const [error, reply] = rows[i] ?? [new Error('no reply from Redis for this report'), null];
      if (error) return error;
      const r = reply as [number, string, string, number, number];
      return { fresh: r[0] === 1, status: r[1] as BugStatus | 'requeue', round: Number(r[2]), newCase: r[3] === 1, jobExists: r[4] === 1 };
    });
  }

  async requestSeen(app: string, requestId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.request(app, requestId))) === 1;
  }

  async markRequest(app: string, requestId: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.keys.request(app, requestId), '1', 'EX', ttlSeconds, 'NX');
  }

  async addRecordedCalls(p: { app: string; blockId: string; sourceHash: string; description: string; source: string; now: number; max: number; calls: [hash: string, json: string][] }): Promise<number> {
    const k = this.keys;
    return Number(await this.#scripts.addRecordedCalls(
      k.recorded(p.app, p.blockId, p.sourceHash), k.block(p.app, p.blockId, p.sourceHash), k.appBlocks(p.app), k.apps(),
      p.max, p.now, p.app, p.blockId, p.sourceHash, p.description, p.source, k.blockMember(p.blockId, p.sourceHash),
      ...p.calls.flat(),
    ));
  }

  async getBug(fp: string): Promise<BugRecord | null> {
    const h = await this.redis.hgetall(this.keys.bug(fp));
    return h.fingerprint ? toBug(h) : null;
  }

  async bugCases(fp: string): Promise<StoredFailureCase[]> {
    return Object.values(await this.redis.hgetall(this.keys.bugCases(fp))).map((j) => JSON.parse(j));
  }

  async getBlock(app: string, blockId: string, sourceHash: string): Promise<BlockRecord | null> {
    const h = await this.redis.hgetall(this.keys.block(app, blockId, sourceHash));
    return h.app ? toBlock(h) : null;
  }

  async recordedCalls(app: string, blockId: string, sourceHash: string): Promise<StoredRecordedCall[]> {
    return Object.values(await this.redis.hgetall(this.keys.recorded(app, blockId, sourceHash))).map((j) => JSON.parse(j));
  }

  async listApps(): Promise<string[]> {
    return (await this.redis.smembers(this.keys.apps())).sort();
  }

  async listBlocks(app: string): Promise<BlockRecord[]> {
    const members = await this.redis.zrevrange(this.keys.appBlocks(app), 0, 999);
    const pipe = this.redis.pipeline();
    for (const m of members) {
      const { blockId, sourceHash } = this.keys.parseBlockMember(m);
      pipe.hgetall(this.keys.block(app, blockId, sourceHash));
    }
    const rows = (await pipe.exec()) ?? [];
    return rows.map(([, h]) => h as Record<string, string>).filter((h) => h?.app).map(toBlock);
  }

  async listBugs(app: string, limit = 1000): Promise<BugRecord[]> {
    const fps = await this.redis.zrevrange(this.keys.appBugs(app), 0, limit - 1);
    const pipe = this.redis.pipeline();
    for (const fp of fps) pipe.hgetall(this.keys.bug(fp));
    const rows = (await pipe.exec()) ?? [];
    return rows.map(([, h]) => h as Record<string, string>).filter((h) => h?.fingerprint).map(toBug);
  }

  /** Sets the status of the bug's round `round` (not of another), with the reason when no patch will come, and announces it. */
  async setBugStatus(fp: string, round: number, status: BugStatus, detail: { reason?: string; unseen?: readonly string[] } = {}): Promise<boolean> {
    return (await this.#scripts.setBugStatus(
      this.keys.bug(fp), round, status, Date.now(), detail.reason ?? '', this.keys.events(), (detail.unseen ?? []).join(','),
    )) === 1;
  }

  async reservePatchVersion(bug: BugRecord, round: number): Promise<{ version: number; id: string } | { stale: string }> {
    const [v, idOrStatus] = (await this.#scripts.reservePatchVersion(
      this.keys.bug(bug.fingerprint), this.keys.blockVersion(bug.app, bug.blockId), round, bug.fingerprint.slice(0, 16),
    )) as [number, string];
    return v < 0 ? { stale: idOrStatus } : { version: v, id: idOrStatus };
  }

  async storePatch(doc: PatchDoc, status: PatchStatus, rollout: number): Promise<{ stored: boolean; revision: number }> {
    const k = this.keys;
    const now = Date.now();
    const [stored, revision] = (await this.#scripts.storePatch(
      k.patch(doc.id), k.appPatches(doc.app), k.revision(doc.app), k.bug(doc.fingerprint),
      JSON.stringify(doc), status, rollout, now, doc.version, k.events(), doc.app, doc.fingerprint, doc.id, doc.blockId,
    )) as [number, number];
    return { stored: stored === 1, revision };
  }

  async getPatch(id: string): Promise<PatchRecord | null> {
    const h = await this.redis.hgetall(this.keys.patch(id));
    return h.doc ? toPatch(h) : null;
  }

  /** Revision and every patch of an app, read atomically. */
  async readPatches(app: string): Promise<{ revision: number; patches: PatchRecord[] }> {
    const [revision, ...rows] = (await this.#scripts.readManifest(this.keys.revision(app), this.keys.appPatches(app), this.keys.patchPrefix())) as [number, ...string[][]];
    const patches: PatchRecord[] = [];
    for (const flat of rows) {
      const h: Record<string, string> = {};
      for (let i = 0; i < flat.length; i += 2) h[flat[i]] = flat[i + 1];
      if (h.doc) patches.push(toPatch(h));
    }
    return { revision: Number(revision), patches };
  }

  async revision(app: string): Promise<number> {
    return num((await this.redis.get(this.keys.revision(app))) ?? undefined);
  }

  /** Adds outcome counts; a shadow disagreement, or too many throws, rolls the patch back (`reason`). */
  async applyOutcome(patch: PatchRecord, c: OutcomeCounts, rules: OutcomeRules): Promise<{ decision: OutcomeDecision; revision: number; rollout: number; status: string; reason?: 'shadow' | 'threw' }> {
    const k = this.keys;
    const [decision, revision, rollout, status, reason] = (await this.#scripts.applyOutcome(
      k.patch(patch.id), k.revision(patch.app), k.bug(patch.fingerprint),
      c.passed, c.threw, rules.steps.join(','), rules.cleanCalls, rules.threshold, rules.minCalls, Date.now(), k.events(), patch.app, patch.id,
      c.agreed ?? 0, c.disagreed ?? 0,
    )) as [string, number, string, string, string];
    return { decision: decision as OutcomeDecision, revision: Number(revision), rollout: Number(rollout), status, ...(reason ? { reason: reason as 'shadow' | 'threw' } : {}) };
  }

  /** Sets a patch's mode (and the grant signature of `replace`) when its status is one of `from`. */
  async setPatchMode(patch: PatchRecord, from: readonly PatchStatus[], mode: PatchMode, grant: string): Promise<{ changed: true; revision: number; before: PatchMode } | { changed: false; status: string }> {
    const k = this.keys;
    const [changed, x, before] = (await this.#scripts.setPatchMode(
      k.patch(patch.id), k.revision(patch.app), from.join(','), mode, grant, Date.now(), k.events(), patch.app, patch.id,
    )) as [number, number | string, string];
    return changed === 1 ? { changed: true, revision: Number(x), before: before === 'replace' ? 'replace' : 'fallback' } : { changed: false, status: String(x) };
  }

  async setPatchStatus(patch: PatchRecord, from: readonly PatchStatus[], to: PatchStatus, rollout: number, bugStatus: BugStatus | '', step?: number): Promise<{ changed: true; revision: number } | { changed: false; status: string }> {
    const k = this.keys;
    const [changed, x] = (await this.#scripts.setPatchStatus(
      k.patch(patch.id), k.revision(patch.app), k.bug(patch.fingerprint),
      from.join(','), to, rollout, bugStatus, Date.now(), k.events(), patch.app, patch.id, step === undefined ? '' : step,
    )) as [number, number | string];
    return changed === 1 ? { changed: true, revision: Number(x) } : { changed: false, status: String(x) };
  }

  /** Opens a new round of a bug; returns it, or -1 when the bug is unknown. */
  async requeueBug(fp: string): Promise<number> {
    return Number(await this.#scripts.requeueBug(this.keys.bug(fp)));
  }

  async saveReport(fp: string, round: number, report: unknown): Promise<void> {
    await this.redis.set(this.keys.report(fp, round), JSON.stringify(report));
  }

  async getReport(fp: string, round: number): Promise<unknown> {
    const j = await this.redis.get(this.keys.report(fp, round));
    return j ? JSON.parse(j) : null;
  }

  async getPolicies(): Promise<Record<string, string>> {
    return this.redis.hgetall(this.keys.policies());
  }

  async setPolicy(key: string, policy: string | null): Promise<void> {
    if (policy === null) await this.redis.hdel(this.keys.policies(), key);
    else await this.redis.hset(this.keys.policies(), key, policy);
  }

  async audit(entry: Omit<AuditEntry, 'at'>, max: number): Promise<void> {
    const full: AuditEntry = { at: new Date().toISOString(), ...entry };
    await this.redis.multi().lpush(this.keys.audit(), JSON.stringify(full)).ltrim(this.keys.audit(), 0, max - 1).exec();
  }

  async readAudit(limit: number): Promise<AuditEntry[]> {
    return (await this.redis.lrange(this.keys.audit(), 0, limit - 1)).map((j) => JSON.parse(j));
  }

  /**
   * Records the public key of the signing key pair the first time any process starts and returns
   * the recorded one, so a machine started with another key can refuse to run.
   */
  async claimPublicKey(pem: string): Promise<string> {
    await this.redis.set(this.keys.publicKey(), pem, 'NX');
    return (await this.redis.get(this.keys.publicKey())) ?? pem;
  }
}

function toBug(h: Record<string, string>): BugRecord {
  return {
    fingerprint: h.fingerprint,
    app: h.app,
    blockId: h.blockId,
    sourceHash: h.sourceHash,
    errorName: h.errorName,
    message: h.message,
    firstMessage: h.firstMessage ?? h.message,
    topFrame: h.topFrame ?? '',
    stack: h.stack ?? '',
    status: h.status as BugStatus,
    round: num(h.round),
    count: num(h.count),
    firstSeen: num(h.firstSeen),
    lastSeen: num(h.lastSeen),
    ...(h.patchId ? { patchId: h.patchId, patchVersion: num(h.patchVersion) } : {}),
    ...(h.uses ? { uses: h.uses.split(',') } : {}),
    ...(h.unseen && h.status === 'cannot-see' ? { unseen: h.unseen.split(',') } : {}),
    ...(h.reason ? { reason: h.reason } : {}),
  };
}

function toBlock(h: Record<string, string>): BlockRecord {
  return {
    app: h.app,
    blockId: h.blockId,
    sourceHash: h.sourceHash,
    source: h.source,
    description: h.description,
    failures: num(h.failures),
    recorded: num(h.recorded),
    firstSeen: num(h.firstSeen),
    lastSeen: num(h.lastSeen),
  };
}

function toPatch(h: Record<string, string>): PatchRecord {
  const doc = JSON.parse(h.doc) as PatchDoc;
  return {
    ...doc,
    status: h.status as PatchStatus,
    rollout: Number(h.rollout),
    step: num(h.step),
    passed: num(h.passed),
    threw: num(h.threw),
    stepPassed: num(h.stepPassed),
    stepThrew: num(h.stepThrew),
    agreed: num(h.agreed),
    disagreed: num(h.disagreed),
    // Patches stored before modes existed run in fallback mode too: replace needs a grant.
    mode: h.mode === 'replace' ? 'replace' : 'fallback',
    ...(h.modeSignature ? { modeSignature: h.modeSignature } : {}),
    createdAt: num(h.createdAt),
    updatedAt: num(h.updatedAt),
  };
}
