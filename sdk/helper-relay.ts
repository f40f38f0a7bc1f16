/**
 * The relay thread between the app thread and its patch helper process (see helper-executor.ts
 * and helper-protocol.ts). It owns the helper: starts it on the first call, passes requests on
 * (a patch's source only the first time this helper sees it), passes answers back and wakes the
 * app thread after each, fails the calls in flight when the helper dies and starts a new one on
 * the next call. A helper that says it cannot host an isolate is not started again. A call's
 * dependency callbacks and their answers pass through both ways while the call is in flight.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { workerData, type MessagePort } from 'node:worker_threads';
import type { HelperAnswer, HelperRequest, RelayAnswer, RelayData, RelayRequest } from './helper-protocol.ts';

const { port, flag, data } = workerData as { port: MessagePort; flag: Int32Array; data: RelayData };

/** Helpers that die before they are ready this many times in a row are not started again. */
const MAX_FAILED_STARTS = 3;

let helper: ChildProcess | null = null;
let installed = new Set<string>();
const inFlight = new Set<number>();
let failedStarts = 0;
let unavailable: string | null = null;

function post(m: RelayAnswer): void {
  port.postMessage(m);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

/** `threw` when a running helper died (a patch may have crashed it); `unavailable` when it never got going. */
function failInFlight(message: string, reason: 'threw' | 'unavailable'): void {
  for (const n of inFlight) post({ t: 'done', n, ok: false, reason, error: { name: 'Error', message, stack: `Error: ${message}` } });
  inFlight.clear();
}

function start(): ChildProcess {
  const child = fork(data.helperPath, [JSON.stringify(data.limits)], {
    execArgv: data.execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'json',
  });
  let ready = false;
  installed = new Set();
  child.on('message', (m: HelperAnswer) => {
    if (m.t === 'ready') {
      ready = true;
      failedStarts = 0;
      if (child.pid !== undefined) post({ t: 'started', pid: child.pid });
    } else if (m.t === 'unavailable') {
      unavailable = m.message;
      post({ t: 'unavailable', message: m.message });
      failInFlight(`patches cannot run: ${m.message}`, 'unavailable');
    } else if (m.t === 'callback') {
      if (inFlight.has(m.n)) post(m);
    } else if (inFlight.delete(m.n)) {
      post(m);
    }
  });
  child.on('exit', (code, signal) => {
    if (helper === child) helper = null;
    if (!ready && unavailable === null && ++failedStarts >= MAX_FAILED_STARTS) {
      unavailable = `the patch helper process exited ${failedStarts} times before it was ready (last: ${signal ?? `code ${code}`})`;
      post({ t: 'unavailable', message: unavailable });
    }
    failInFlight(`the patch helper process exited (${signal ?? `code ${code}`}) during the call`, ready ? 'threw' : 'unavailable');
  });
  child.on('error', () => {
    /* 'exit' follows, or the spawn failed: the next call tries again */
  });
  return child;
}

function toHelper(m: HelperRequest): void {
  helper ??= start();
  helper.send(m, (err) => {
    if (err && m.t === 'call' && inFlight.delete(m.n)) {
      post({ t: 'done', n: m.n, ok: false, reason: 'unavailable', error: { name: 'Error', message: `could not reach the patch helper: ${err.message}`, stack: '' } });
    }
  });
}

port.on('message', (m: RelayRequest) => {
  switch (m.t) {
    case 'call': {
      if (unavailable !== null) {
        post({ t: 'done', n: m.n, ok: false, reason: 'unavailable', error: { name: 'Error', message: `patches cannot run: ${unavailable}`, stack: '' } });
        return;
      }
      helper ??= start();
      inFlight.add(m.n);
      const first = !installed.has(m.id);
      installed.add(m.id);
      toHelper({ t: 'call', n: m.n, id: m.id, input: m.input, async: m.async, ...(first ? { source: m.source } : {}), ...(m.world !== undefined ? { world: m.world } : {}) });
      return;
    }
    case 'callback-answer':
      // To the helper that asked (a callback of a call that ended, or of a dead helper, is dropped).
      if (helper !== null && inFlight.has(m.n)) toHelper(m);
      return;
    case 'release':
      // A manifest with patches to run: start the helper now, so the first patched call finds it ready.
      installed = new Set([...installed].filter((id) => m.keep.includes(id)));
      if (helper !== null || (m.keep.length > 0 && unavailable === null)) toHelper(m);
      return;
    case 'restart':
      helper?.kill('SIGKILL');
      return;
    case 'close':
      helper?.kill('SIGKILL');
      helper = null;
      port.close();
      return;
  }
});
