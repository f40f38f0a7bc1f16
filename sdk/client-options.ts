import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { FailureReport, RecordedCall } from '../core/wire.ts';
import { RepairConfigError } from './sdk-errors.ts';

/** Limits for a patch run in `isolate` mode. */
export interface PatchLimits {
  /** Time a patched call may run before it is stopped (sync code: CPU loop; async: also pending work), ms. @defaultValue 1000 */
  cpuMs: number;
  /** Wall-clock time an async patched call may take until it settles, ms. @defaultValue 2000 */
  wallMs: number;
  /** Heap limit of the isolate that runs patches, MB. @defaultValue 64 */
  memoryMb: number;
}

/** What may be changed or removed from a report before it leaves the process. */
export type RedactHook = (
  item: { kind: 'failure'; report: FailureReport } | { kind: 'recorded'; blockId: string; call: RecordedCall },
) => FailureReport | RecordedCall | null | undefined;

export interface RepairClientOptions {
  /** Base URL of the suture daemon, e.g. `http://127.0.0.1:7070`. @defaultValue SUTURE_URL (required one way or the other) */
  url?: string;
  /** Application name; the daemon keys blocks, patches and tokens by it. @defaultValue SUTURE_APP (required one way or the other) */
  app?: string;
  /** App token sent as `Authorization: Bearer <token>`. @defaultValue SUTURE_TOKEN, else none (no header) */
  token?: string;
  /**
   * Ed25519 public key (PEM or KeyObject) that patch signatures must verify with.
   * Without it, no patch is ever run (failures are still reported).
   * @defaultValue SUTURE_PUBLIC_KEY (PEM text; `\n` escapes allowed), else the PEM file SUTURE_PUBLIC_KEY_FILE, else none
   */
  publicKey?: string | KeyObject;
  /** Log what the SDK does (client set-up, manifests applied, failures reported, patches run, errors) to stderr, one line each. @defaultValue SUTURE_DEBUG (1/true/yes), else false */
  debug?: boolean;
  /** This process's id for rollout shares and reports. @defaultValue `${hostname()}:${process.pid}` */
  instanceId?: string;
  /** Ms a failing call may wait for its patch before the block's own error is rethrown; 0 rethrows at once. @defaultValue 0 */
  waitForFix?: number;
  /** Success recording: the share of successful calls whose inputs, result and argument state after are sent. */
  record?: {
    /** 0..1; 0 turns recording off. @defaultValue 0.01 */
    sampleRate?: number;
    /** Most recorded calls held in memory awaiting delivery (oldest dropped, counted). @defaultValue 1000 */
    maxQueued?: number;
    /**
     * The first this many distinct successful calls of every block (distinct by encoded inputs) are
     * recorded whatever `sampleRate` says, so a repair job always has known-good calls to keep;
     * 0 turns it off. @defaultValue 3
     */
    first?: number;
  };
  /**
   * Shadow runs of patches in `fallback` mode: on a sample of the calls the block answers itself,
   * the patch also runs in the background on a copy of the inputs as they were on entry, and its
   * answer and effects on the arguments are compared with the block's. A patch that differs is
   * reported (and rolled back by the daemon) and no longer used by this instance.
   */
  shadow?: {
    /** 0..1: share of healthy calls of a patched block compared. @defaultValue 0.1 */
    sampleRate?: number;
    /** The first this many healthy calls of each patch in this process are always compared. @defaultValue 5 */
    first?: number;
  };
  /**
   * When inputs are copied for a failure report. A healthy call never costs a copy of its
   * arguments in either mode, except calls being recorded.
   * - `'entry'`: after a block fails (and may have changed its inputs before throwing), its calls
   *   copy their arguments on entry for a while, so its next failure reports (and `waitForFix`
   *   runs the patch on) the inputs exactly as they were. A first failure, and any failure of a
   *   block that provably writes to no object, costs no copy; the report's `inputs` says which.
   * - `'on-failure'`: never copied on entry; a failure report encodes the arguments as they are
   *   after the throw (`inputs: 'after-throw'` unless the block provably writes to no object), and
   *   `waitForFix` runs the patch on that state.
   * @defaultValue 'entry'
   */
  snapshot?: 'entry' | 'on-failure';
  /** Secret redaction applied before anything leaves the process. */
  redact?: {
    /** Key patterns whose values are replaced by a redaction marker (see core/snapshot.ts). @defaultValue DEFAULT_REDACT_KEYS */
    keys?: ReadonlyArray<string | RegExp>;
    /** Last look at each failure report / recorded call: return a changed copy, or null to drop it. @defaultValue none */
    hook?: RedactHook;
  };
  /** How the manifest of patches is kept current: a Server-Sent-Events stream, ETag polling, or not at all. @defaultValue 'stream' */
  sync?: 'stream' | 'poll' | 'off';
  /** Poll period in `'poll'` mode (and retry base of the stream), ms. @defaultValue 10_000 */
  pollInterval?: number;
  /** Longest pause between retries of sync and deliveries, ms. @defaultValue 60_000 */
  maxBackoff?: number;
  /** File holding the last good manifest; loaded at start so patches run without the daemon. @defaultValue none */
  backupFile?: string;
  /** Where patches run: a separate isolated-vm isolate with limits, or compiled in this process. @defaultValue 'isolate' */
  execution?: 'isolate' | 'trusted';
  /** Limits for `isolate` execution. */
  limits?: Partial<PatchLimits>;
  /** Most failure reports held in memory awaiting delivery (oldest dropped, counted). @defaultValue 1000 */
  maxQueuedFailures?: number;
  /** Period at which queued reports, recorded calls and outcome counts are sent, ms. @defaultValue 2000 */
  flushInterval?: number;
  /** Timeout of one HTTP request to the daemon (not the long-poll), ms. @defaultValue 5000 */
  requestTimeout?: number;
}

export interface ResolvedOptions {
  url: string;
  app: string;
  token: string | undefined;
  publicKey: string | KeyObject | undefined;
  instanceId: string;
  waitForFix: number;
  debug: boolean;
  sampleRate: number;
  maxQueuedCalls: number;
  recordFirst: number;
  shadowRate: number;
  shadowFirst: number;
  snapshot: 'entry' | 'on-failure';
  redactKeys: ReadonlyArray<string | RegExp> | undefined;
  redactHook: RedactHook | undefined;
  sync: 'stream' | 'poll' | 'off';
  pollInterval: number;
  maxBackoff: number;
  backupFile: string | undefined;
  execution: 'isolate' | 'trusted';
  limits: PatchLimits;
  maxQueuedFailures: number;
  flushInterval: number;
  requestTimeout: number;
}

function num(key: string, v: unknown, d: number, min: number, max = Infinity): number {
  if (v === undefined) return d;
  if (typeof v !== 'number' || Number.isNaN(v) || v < min || v > max) {
    throw new RepairConfigError(key, `must be a number in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}

function int(key: string, v: unknown, d: number): number {
  const n = num(key, v, d, 0, 1_000_000);
  if (!Number.isInteger(n)) throw new RepairConfigError(key, `must be a whole number, got ${String(v)}`);
  return n;
}

function oneOf<T extends string>(key: string, v: unknown, allowed: readonly T[], d: T): T {
  if (v === undefined) return d;
  if (!allowed.includes(v as T)) throw new RepairConfigError(key, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${String(v)}`);
  return v as T;
}

/** A set environment variable (empty counts as unset). */
function envOf(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v;
}

/** The public key from SUTURE_PUBLIC_KEY (PEM, `\n` escapes allowed) or the file SUTURE_PUBLIC_KEY_FILE, checked to parse. */
function publicKeyFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  let pem = envOf(env, 'SUTURE_PUBLIC_KEY')?.replace(/\\n/g, '\n');
  let from = 'SUTURE_PUBLIC_KEY';
  const file = envOf(env, 'SUTURE_PUBLIC_KEY_FILE');
  if (pem === undefined && file !== undefined) {
    from = `SUTURE_PUBLIC_KEY_FILE (${file})`;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new RepairConfigError('publicKey', `${from} cannot be read: ${(err as Error).message}`);
    }
  }
  if (pem === undefined) return undefined;
  try {
    createPublicKey(pem);
  } catch (err) {
    throw new RepairConfigError('publicKey', `${from} is not a PEM public key: ${(err as Error).message}`);
  }
  return pem;
}

/** Options left out are read from the environment: SUTURE_URL, SUTURE_APP, SUTURE_TOKEN, SUTURE_PUBLIC_KEY(_FILE), SUTURE_DEBUG. */
function withEnvironment(o: RepairClientOptions, env: NodeJS.ProcessEnv): RepairClientOptions {
  const debugEnv = envOf(env, 'SUTURE_DEBUG');
  return {
    ...o,
    url: o.url ?? envOf(env, 'SUTURE_URL'),
    app: o.app ?? envOf(env, 'SUTURE_APP'),
    token: o.token ?? envOf(env, 'SUTURE_TOKEN'),
    publicKey: o.publicKey ?? publicKeyFromEnv(env),
    debug: o.debug ?? (debugEnv !== undefined && /^(1|true|yes|on)$/i.test(debugEnv.trim())),
  };
}

/** Validates options once, at start, with messages that name the bad key; options left out come from the environment. */
export function resolveOptions(options: RepairClientOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  if (!options || typeof options !== 'object') throw new RepairConfigError('options', 'must be an object');
  const o = withEnvironment(options, env);
  if (o.url === undefined) throw new RepairConfigError('url', 'missing: pass { url } or set SUTURE_URL (e.g. http://127.0.0.1:7070)');
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new RepairConfigError('url', `must be an absolute http(s) URL, got ${String(o.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RepairConfigError('url', 'must use http or https');
  if (o.app === undefined) throw new RepairConfigError('app', 'missing: pass { app } or set SUTURE_APP');
  if (typeof o.app !== 'string' || o.app === '') throw new RepairConfigError('app', 'must be a non-empty string');
  if (o.token !== undefined && typeof o.token !== 'string') throw new RepairConfigError('token', 'must be a string');
  if (typeof o.debug !== 'boolean') throw new RepairConfigError('debug', 'must be true or false');
  if (o.instanceId !== undefined && (typeof o.instanceId !== 'string' || o.instanceId === '')) {
    throw new RepairConfigError('instanceId', 'must be a non-empty string');
  }
  if (o.redact?.hook !== undefined && typeof o.redact.hook !== 'function') throw new RepairConfigError('redact.hook', 'must be a function');
  if (o.redact?.keys !== undefined && !Array.isArray(o.redact.keys)) throw new RepairConfigError('redact.keys', 'must be an array');
  if (o.backupFile !== undefined && typeof o.backupFile !== 'string') throw new RepairConfigError('backupFile', 'must be a path');
  const limits = o.limits ?? {};
  return {
    url: url.href.replace(/\/+$/, ''),
    app: o.app,
    token: o.token,
    publicKey: o.publicKey,
    instanceId: o.instanceId ?? `${hostname()}:${process.pid}`,
    waitForFix: num('waitForFix', o.waitForFix, 0, 0),
    debug: o.debug,
    sampleRate: num('record.sampleRate', o.record?.sampleRate, 0.01, 0, 1),
    maxQueuedCalls: num('record.maxQueued', o.record?.maxQueued, 1000, 1),
    recordFirst: int('record.first', o.record?.first, 3),
    shadowRate: num('shadow.sampleRate', o.shadow?.sampleRate, 0.1, 0, 1),
    shadowFirst: int('shadow.first', o.shadow?.first, 5),
    snapshot: oneOf('snapshot', o.snapshot, ['entry', 'on-failure'], 'entry'),
    redactKeys: o.redact?.keys,
    redactHook: o.redact?.hook,
    sync: oneOf('sync', o.sync, ['stream', 'poll', 'off'], 'stream'),
    pollInterval: num('pollInterval', o.pollInterval, 10_000, 10),
    maxBackoff: num('maxBackoff', o.maxBackoff, 60_000, 10),
    backupFile: o.backupFile,
    execution: oneOf('execution', o.execution, ['isolate', 'trusted'], 'isolate'),
    limits: {
      cpuMs: num('limits.cpuMs', limits.cpuMs, 1000, 1),
      wallMs: num('limits.wallMs', limits.wallMs, 2000, 1),
      memoryMb: num('limits.memoryMb', limits.memoryMb, 64, 8),
    },
    maxQueuedFailures: num('maxQueuedFailures', o.maxQueuedFailures, 1000, 1),
    flushInterval: num('flushInterval', o.flushInterval, 2000, 1),
    requestTimeout: num('requestTimeout', o.requestTimeout, 5000, 1),
  };
}
