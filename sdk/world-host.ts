/**
 * The app's side of a patched call with a world (a block with `uses`), whichever isolate runs the
 * patch: one in this process (isolate-executor.ts) or one in the patch helper process
 * (helper-executor.ts). It encodes the live values the isolate gets copies of, answers the
 * isolate's stand-ins by path on the live values (live-world.ts resolves the path and calls
 * through the call's tracer, so calls are logged and, in fallback mode, answered from the block's
 * own log first), and writes the patch's own effects back onto the uses values and the receiver.
 *
 * Answers to the isolate are text: 'R' + the exact codec of the function's answer, 'E' + JSON of
 * what it threw, or 'P' + the id of its promise, whose answer is asked for separately ({@link
 * WorldHost.await}, never rejects).
 */
import { dependencyError } from './error-description.ts';
import { callablePaths, callAt, type PatchWorld } from './live-world.ts';
import { applyPatchAnswer } from './patch-answer.ts';
import type { PatchRun } from './patch-executor.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';
import { applyChanged, StateWriteBack } from './state-write-back.ts';

/** What was sent into the isolate for a world call, to tell the patch's own effects from the rest. */
export interface SentWorld {
  world: PatchWorld;
  uses: Record<string, unknown>;
  /** `{ names, uses, paths }` as the patch harness reads it. */
  json: string;
  /** The receiver as sent (a copy), when there is one. */
  thisBefore?: unknown;
}

/** A world call in progress: its live values and the async answers it waits for. */
interface LiveCall {
  world: PatchWorld;
  pending: Map<string, Promise<unknown>>;
}

export class WorldHost {
  readonly #encoder: SnapshotEncoder;
  /** World calls in progress, by the token their stand-ins call back with. */
  readonly #live = new Map<number, LiveCall>();
  #tokens = 0;

  constructor(encoder: SnapshotEncoder) {
    this.#encoder = encoder;
  }

  /**
   * Encodes a world's live values for the isolate and registers its call; `argsJson` is
   * `[this, ...args]` as sent (plain JSON of the args when `plain`, so no receiver).
   */
  enter(world: PatchWorld, argsJson: string, plain: boolean): { token: number; sent: SentWorld } {
    const exact = this.#encoder.exact;
    const uses: Record<string, unknown> = {};
    world.names.forEach((n, i) => (uses[n] = exact.encode(world.values[i])));
    const token = ++this.#tokens;
    this.#live.set(token, { world, pending: new Map() });
    const sent: SentWorld = { world, uses, json: JSON.stringify({ names: world.names, uses, paths: callablePaths(world) }) };
    if (!plain) sent.thisBefore = (exact.decode(JSON.parse(argsJson)) as unknown[])[0];
    return { token, sent };
  }

  /** The call ended: later calls of its stand-ins are refused. */
  leave(token: number): void {
    this.#live.delete(token);
  }

  /** A stand-in called a live function: 'R' + its answer, 'E' + what it threw, or 'P' + the id of its promise. */
  call(token: number, path: string, argsJson: string): string {
    const live = this.#live.get(token);
    if (live === undefined) return `E${JSON.stringify({ name: 'Error', message: `suture: ${path} called after its patched call ended` })}`;
    try {
      const args = this.#encoder.exact.decode(JSON.parse(argsJson)) as unknown[];
      const r = callAt(live.world, path, Array.isArray(args) ? args : []);
      if (r instanceof Promise) {
        const id = String(live.pending.size + 1);
        live.pending.set(id, r);
        return `P${id}`;
      }
      return `R${this.#encoder.exact.stringify(this.#encoder.exact.encode(r))}`;
    } catch (error) {
      return `E${JSON.stringify(dependencyError(error))}`;
    }
  }

  /** The answer of a live async function a stand-in is awaiting (never rejects: 'R' or 'E'). */
  async await(token: number, id: string): Promise<string> {
    const p = this.#live.get(token)?.pending.get(id);
    if (p === undefined) return `E${JSON.stringify({ name: 'Error', message: 'suture: no such pending call' })}`;
    try {
      const v = await p;
      return `R${this.#encoder.exact.stringify(this.#encoder.exact.encode(v))}`;
    } catch (error) {
      return `E${JSON.stringify(dependencyError(error))}`;
    }
  }

  /**
   * The patch harness's answer ('C' + the exact codec of `[result, this, ...args]`, and for a
   * world call `usesAfter` last) applied to the caller's `target`. Without a world: the state
   * written back as always. With one: the arguments written back as always; the receiver and the
   * uses values get only the patch's own changes (live dependencies it called may have changed
   * them too, and writing the whole copy back would undo that). A patch that contradicted the
   * block's log in fallback mode fails here, whatever it answered.
   */
  finish(target: unknown[], out: unknown, sent?: SentWorld): PatchRun {
    let decoded: unknown[];
    try {
      const text = String(out);
      if (text.charCodeAt(0) !== 0x43 /* C */) throw new TypeError('patch harness answered in an unknown form');
      decoded = this.#encoder.exact.decode(JSON.parse(text.slice(1))) as unknown[];
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
    if (sent === undefined) return applyPatchAnswer(target, decoded);
    const contradicted = sent.world.replay?.contradicted ?? null;
    if (contradicted !== null) return { ok: false, error: new Error(`suture: the patch ${contradicted}; the block's own error stands`), reason: 'threw' };
    try {
      const n = target.length - 1;
      const writeBack = new StateWriteBack();
      writeBack.applyArgs([undefined, ...target.slice(1)], [undefined, ...decoded.slice(2, 2 + n)]);
      if (target[0] !== undefined) applyChanged(target[0], sent.thisBefore, decoded[1]);
      const after = (decoded[2 + n] ?? {}) as Record<string, unknown>;
      const exact = this.#encoder.exact;
      sent.world.names.forEach((name, i) => applyChanged(sent.world.values[i], exact.decode(sent.uses[name] as never), after[name]));
      return { ok: true, value: writeBack.resolve(decoded[0]) };
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
  }
}
