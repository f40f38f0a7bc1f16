/**
 * HTTP wire types between the SDK and the daemon. Defined once here; the daemon
 * validates them with schemas at its edge, the SDK builds them. Values inside are snapshot-encoded.
 */
import type { PatchStatus } from './patch-status.ts';
import type { Encoded } from './types.ts';
import type { CallWorld } from './world.ts';

/** POST /v1/failures — one failing call of a block. */
export interface FailureReport {
  /** Client-chosen id; resending the same report is harmless. */
  requestId: string;
  app: string;
  instanceId: string;
  block: BlockIdentity;
  error: { name: string; message: string; stack?: string };
  /** The call's arguments, each its own snapshot: as they were on entry, or as the failed call left them (see `inputs`). */
  args: Encoded[];
  /**
   * `entry`: `args` are the inputs as they were when the call started (copied on entry, or the
   * block provably writes to no object). `after-throw`: as the failed call left them (the SDK
   * copies inputs on entry only for recorded calls and for blocks that failed lately). Absent from
   * older SDKs (they copied on entry in their default mode).
   */
  inputs?: 'entry' | 'after-throw';
  /** ISO time of the failure. */
  at: string;
  /** Set when the failing code was a patch (then the failure counts against that patch). */
  patchId?: string;
  /** The `uses` values, calls and receiver of the failing call, when the block declares `uses` or has a receiver. */
  world?: CallWorld;
}

/** A block as the SDK names it. `uses` lists the outside names the block reads, given to `run`/`wrap`. */
export interface BlockIdentity {
  id: string;
  description: string;
  source: string;
  uses?: string[];
}

export interface FailureAck {
  fingerprint: string;
  /** The repair job of the bug's round (none is queued for a `cannot-see` bug). */
  jobId: string;
  /** The report's request id was seen before: nothing was stored again. */
  duplicate?: boolean;
  /**
   * The bug's status after this report: `new` (a job is queued), `repairing`, `patched`,
   * `unpatched`, `failed`, `rolled-back`, `rejected`, or `cannot-see`: the block reads outside
   * names (`names`) that are neither standard globals nor in its `uses`, so suture will not
   * search it (a trial would run it without them); the failure is stored all the same.
   */
  status?: string;
  /** Status `cannot-see`: the names. */
  names?: string[];
  /** Status `cannot-see`: "block 'price' reads RATES, which suture cannot see; pass it in uses". */
  message?: string;
}

/** The long poll's answer when no patch will come for the bug (GET /v1/failures/:fingerprint/patch). */
export interface NoPatchAnswer {
  status: 'no-patch';
  /** The bug's status (`cannot-see`, `unpatched`, `failed`, `rejected`). */
  bugStatus: string;
  /** Why, in words. */
  reason: string;
  /** Bug status `cannot-see`: the names suture cannot see. */
  names?: string[];
}

/** One recorded successful call. */
export interface RecordedCall {
  args: Encoded[];
  result: Encoded;
  argsAfter: Encoded[];
  at: string;
  /** The world of the call (see FailureReport.world). */
  world?: CallWorld;
}

/** POST /v1/cases — batches of recorded successful calls per block. */
export interface RecordedCasesBatch {
  requestId: string;
  app: string;
  instanceId: string;
  blocks: (BlockIdentity & { calls: RecordedCall[] })[];
}

export type { PatchStatus } from './patch-status.ts';

/**
 * How an SDK uses a live patch. `fallback` (every new patch): the block runs as written and the
 * patch only answers calls where the block throws. `replace`: the patch runs instead of the block;
 * an operator's decision, signed by the daemon (see core/mode-grant.ts).
 */
export type PatchMode = 'fallback' | 'replace';

/** The fields covered by the signature (see core/patch-signature.ts). */
export interface SignedPatchFields {
  id: string;
  app: string;
  blockId: string;
  /** sha256 hex of the original block source the patch applies to. */
  sourceHash: string;
  version: number;
  /** Replacement source, in the same form as the block (a function expression for SDK blocks). */
  source: string;
  fingerprint: string;
  /** What the patch was checked against before signing; absent on patches signed before evidence existed. */
  evidence?: PatchEvidence;
}

/**
 * The cases a patch was checked against, counted by kind, and the verdict of its re-check in a fresh
 * sandbox on every one of them. Signed with the patch, so it cannot be inflated after signing.
 */
export interface PatchEvidence {
  /** Failing inputs (case kind 'failure'): each must no longer throw. */
  failing: number;
  /** Recorded successful calls (kind 'recorded'): same result, same argument state after. */
  recorded: number;
  /** Inputs generated around the recorded and failing ones (kind 'generated'). */
  generated: number;
  /** Test cases (kind 'test'). */
  tests: number;
  /** The re-check before signing: cases passed of cases run, in a sandbox that did not run the search. */
  recheck: { passed: number; total: number };
}

export interface ManifestPatch extends SignedPatchFields {
  status: PatchStatus;
  /** Share of instances that run the patch, 0..1 (canary steps; 1 when active). */
  rollout: number;
  /** base64 Ed25519 signature over canonicalPatchPayload(fields). */
  signature: string;
  score: { generator: string; description: string; passed: number; total: number; editSize: number };
  /** Absent means `fallback`. */
  mode?: PatchMode;
  /** base64 Ed25519 signature over canonicalModeGrant (core/mode-grant.ts); an SDK runs `replace` only when it verifies. */
  modeSignature?: string;
}

/** GET /v1/manifest?app=APP */
export interface Manifest {
  app: string;
  revision: number;
  patches: ManifestPatch[];
}

/** POST /v1/outcomes — counts of patched calls per patch since the last report. */
export interface OutcomeReport {
  requestId: string;
  app: string;
  instanceId: string;
  outcomes: {
    patchId: string;
    /** Patched calls (in fallback mode: calls the block threw on and the patch answered) that returned. */
    passed: number;
    /** Patched calls where the patch threw or hit a limit. */
    threw: number;
    /** Shadow runs (fallback mode) whose answer and argument effects equalled the block's. */
    agreed?: number;
    /** Shadow runs that differed from the block, or threw where it answered. */
    disagreed?: number;
    /** Some of the disagreeing calls, with the block's own answer (the expectation of the next repair round). */
    disagreements?: ShadowDisagreement[];
  }[];
}

/** A healthy call the patch would have changed. */
export interface ShadowDisagreement {
  /** The call as the block handled it: inputs on entry, its answer, the arguments' state after. */
  call: RecordedCall;
  /** What the patch did on the same inputs. */
  patch: { result: Encoded; argsAfter: Encoded[] } | { error: { name: string; message: string } };
}
