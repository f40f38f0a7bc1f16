import { randomUUID } from 'node:crypto';
import type { ManifestPatch, OutcomeReport, RecordedCall, ShadowDisagreement } from '../core/wire.ts';
import { redactCall } from './call-world.ts';
import type { ClientEvents } from './client-events.ts';
import type { ResolvedOptions } from './client-options.ts';
import { isRetryableStatus, type DaemonHttp } from './daemon-http.ts';
import { copyArgs } from './entry-copy.ts';
import { shortError } from './error-description.ts';
import { OutcomeTally } from './outcome-tally.ts';
import type { PatchExecutor } from './patch-executor.ts';
import { SdkError } from './sdk-errors.ts';
import { ShadowRuns, type ShadowOutcome, type ShadowSample, type ShadowWorld } from './shadow-runs.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';

/** Disagreeing calls of one patch sent by one instance: enough to be cases of the next round. */
const MAX_DISAGREEMENTS_SENT = 3;

/**
 * What each patch did here, reported to `/v1/outcomes`: patched calls that passed or threw, and
 * the shadow runs of fallback-mode patches (agreed or disagreed with the block, with a few
 * disagreeing calls). Counts go out on a timer; a disagreement goes out at once and the patch is
 * dropped on this instance (`onDisagreement`).
 */
export class OutcomeCounting {
  readonly #o: ResolvedOptions;
  readonly #events: ClientEvents;
  readonly #http: DaemonHttp;
  readonly #encoder: SnapshotEncoder;
  readonly #shadow: ShadowRuns;
  readonly #onDisagreement: (patchId: string) => void;
  readonly #tally = new OutcomeTally();
  readonly #disagreementsSent = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(o: {
    options: ResolvedOptions;
    events: ClientEvents;
    http: DaemonHttp;
    encoder: SnapshotEncoder;
    executor: PatchExecutor | null;
    onDisagreement: (patchId: string) => void;
  }) {
    this.#o = o.options;
    this.#events = o.events;
    this.#http = o.http;
    this.#encoder = o.encoder;
    this.#onDisagreement = o.onDisagreement;
    this.#shadow = new ShadowRuns({
      executor: () => o.executor,
      encoder: o.encoder,
      rate: o.options.shadowRate,
      first: o.options.shadowFirst,
      onOutcome: (sample, outcome) => this.#shadowDone(sample, outcome),
    });
  }

  count(patchId: string, what: 'passed' | 'threw'): void {
    this.#tally.add(patchId, { [what]: 1 });
    this.#schedule();
  }

  /**
   * Whether the coming call of a fallback-mode patch's block is compared with the patch if it
   * answers. Asked before the block runs: only these calls (and recorded ones) copy their inputs
   * on entry.
   */
  wantsShadow(patchId: string, async: boolean): boolean {
    return !this.#closed && this.#shadow.wants(patchId, async);
  }

  /** A healthy call `wantsShadow` chose (`entry`: its inputs copied on entry): compares the patch with it in the background. */
  shadow(blockId: string, patch: ManifestPatch, async: boolean, entry: unknown[], value: unknown, target: unknown[], world?: ShadowWorld): void {
    if (!this.#closed) this.#shadow.run({ blockId, patch, async, entry, result: copyArgs([value])[0], after: copyArgs(target), ...(world === undefined ? {} : { world }) });
  }

  /** Patch ids no longer in use are forgotten. */
  release(keep: ReadonlySet<string>): void {
    this.#shadow.release(keep);
  }

  /** Sends the counts so far now; never rejects. */
  async send(): Promise<void> {
    if (this.#tally.size === 0) return;
    const outcomes = this.#tally.take();
    const report: OutcomeReport = { requestId: randomUUID(), app: this.#o.app, instanceId: this.#o.instanceId, outcomes };
    let ok = false;
    try {
      const res = await this.#http.request('POST', '/v1/outcomes', { body: report });
      ok = (res.status >= 200 && res.status < 300) || !isRetryableStatus(res.status);
      if (!ok) this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `outcome counts not delivered: HTTP ${res.status}`));
    } catch (err) {
      this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `outcome counts not delivered: ${(err as Error).message}`, { cause: err }));
    }
    if (!ok) {
      // Put the counts back (after Unleash's metrics buckets) so the next send carries them.
      this.#tally.restore(outcomes);
      this.#schedule(Math.min(this.#o.maxBackoff, this.#o.flushInterval * 4));
    }
  }

  /** Stops the timer and sends what is counted once more. */
  close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    return this.send();
  }

  #schedule(delay = this.#o.flushInterval): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.send();
    }, delay);
    this.#timer.unref();
  }

  /** A shadow run ended: count it; a disagreement is reported at once and the patch is dropped here. */
  #shadowDone(sample: ShadowSample, outcome: ShadowOutcome): void {
    const { patch } = sample;
    if ('inconclusive' in outcome) {
      // Neither agreement nor disagreement: not counted, not reported (see shadow-runs.ts).
      this.#events.emit('shadowInconclusive', { blockId: sample.blockId, patchId: patch.id, version: patch.version, reason: outcome.inconclusive });
      return;
    }
    this.#events.emit('shadow', { blockId: sample.blockId, patchId: patch.id, version: patch.version, agreed: outcome.agreed });
    if (outcome.agreed) {
      this.#tally.add(patch.id, { agreed: 1 });
      this.#schedule();
      return;
    }
    const sent = this.#disagreementsSent.get(patch.id) ?? 0;
    let disagreement;
    if (sent < MAX_DISAGREEMENTS_SENT) {
      try {
        disagreement = this.#describeDisagreement(sample, outcome);
      } catch (err) {
        this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `could not encode a shadow disagreement of ${patch.id}`, { cause: err }));
      }
      if (disagreement) this.#disagreementsSent.set(patch.id, sent + 1);
    }
    this.#tally.add(patch.id, { disagreed: 1 }, disagreement);
    this.#onDisagreement(patch.id);
    if (!this.#closed) void this.send();
  }

  #describeDisagreement(s: ShadowSample, outcome: Extract<ShadowOutcome, { patch: unknown }>): ShadowDisagreement | undefined {
    // One report: a value redacted by key in the call is redacted in the patch's answer too.
    const r = this.#encoder.report();
    let call: RecordedCall = {
      args: r.encodeEach(s.entry.slice(1)),
      result: r.encode(s.result),
      argsAfter: r.encodeEach(s.after.slice(1)),
      at: new Date().toISOString(),
    };
    const p = outcome.patch;
    const patch: ShadowDisagreement['patch'] = p.ok ? { result: r.encode(p.result), argsAfter: r.encodeEach(p.after.slice(1)) } : { error: shortError(p.error) };
    redactCall(r, call);
    if ('error' in patch) patch.error = { name: r.redactText(patch.error.name), message: r.redactText(patch.error.message) };
    else {
      patch.result = r.redact(patch.result);
      patch.argsAfter = r.redactEach(patch.argsAfter);
    }
    if (this.#o.redactHook) {
      const out = this.#o.redactHook({ kind: 'recorded', blockId: s.blockId, call });
      if (!out) return undefined;
      call = out as RecordedCall;
    }
    return { call, patch };
  }
}
