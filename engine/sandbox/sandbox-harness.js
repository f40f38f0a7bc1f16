/*
 * The in-sandbox harness: a plain script run in the sandbox context after SES, the snapshot codec
 * and core/hardened-realm-script.js. It defines globals that only the sandbox host calls, through
 * References it takes right after set-up (nothing of the candidate's can name them: every
 * candidate runs in a compartment of its own, with a global object of its own):
 *
 *   __sutureInit()            lock the realm down (SES lockdown: every intrinsic frozen)
 *   __sutureLoad(loadJson)    -> JSON {ok:true} | {ok:false,error}: evaluate a candidate in a fresh
 *                                compartment; loadJson is {source, entry ('' = function
 *                                expression), names (other top-level declarations), free (names
 *                                read but never declared), coverage}
 *   __sutureRunSync(caseJson) -> JSON {status:'returned'|'threw'|'too-large', actual?, argsAfter?,
 *                                error?, covered?, bytes?}, or '' when the case's value is a
 *                                thenable: then
 *   __sutureFinish()          -> Promise<JSON> of the same shape, once that thenable settles
 *   __sutureDrop()            forget the loaded candidate
 *
 * How a verdict stays out of the candidate's reach:
 * - the harness and codec live in the start compartment, whose intrinsics lockdown froze, so no
 *   accessor on a prototype, replaced method or shadowed global reaches the code that encodes
 *   the result or decides the outcome;
 * - a result is read once, by the codec, into data: that copy is what the host compares, as it is
 *   what an app gets from a patch in the SDK (getters, toJSON, Symbol.toPrimitive, valueOf and
 *   thenables give the judge what they would give the app);
 * - a `script` case runs in a compartment of its own whose `console.assert` belongs to the
 *   harness; the candidate's declarations reach it as guarded functions whose answers are copied
 *   the same way, and a failed assertion fails the case even if something caught the throw.
 */
(function installSutureHarness() {
  'use strict';
  const g = globalThis;
  const codec = createSnapshotCodec({});
  const realm = createHardenedRealm();

  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const JSONParse = JSON.parse;
  const isArray = Array.isArray;
  const SafeString = String;
  const StringIndexOf = String.prototype.indexOf;
  const StringSlice = String.prototype.slice;
  const StringCharCodeAt = String.prototype.charCodeAt;
  const PromiseCtor = Promise;
  const PromiseResolve = Promise.resolve;
  const PromiseThen = Promise.prototype.then;
  const ErrorCtor = Error;

  function safeString(v) {
    try {
      return typeof v === 'symbol' ? 'Symbol()' : SafeString(v);
    } catch {
      return '<unprintable>';
    }
  }

  /** 1-based line/column, in the block's own text, of the innermost `block.js` frame of a V8 stack. */
  function blockPosition(stack) {
    let start = 0;
    while (start < stack.length) {
      let end = apply(StringIndexOf, stack, ['\n', start]);
      if (end < 0) end = stack.length;
      const line = apply(StringSlice, stack, [start, end]);
      start = end + 1;
      let i = 0;
      while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
      if (line[i] !== 'a' || line[i + 1] !== 't' || line[i + 2] !== ' ') continue;
      const at = apply(StringIndexOf, line, ['block.js:', i]);
      if (at < 0) continue;
      let j = at + 9;
      let ln = 0;
      let col = 0;
      let digits = 0;
      for (; j < line.length; j++) {
        const c = apply(StringCharCodeAt, line, [j]);
        if (c < 48 || c > 57) break;
        ln = ln * 10 + (c - 48);
        digits++;
      }
      if (!digits || line[j] !== ':') continue;
      digits = 0;
      for (j++; j < line.length; j++) {
        const c = apply(StringCharCodeAt, line, [j]);
        if (c < 48 || c > 57) break;
        col = col * 10 + (c - 48);
        digits++;
      }
      if (!digits || ln <= realm.PREFIX_LINES) continue;
      return { line: ln - realm.PREFIX_LINES, column: col };
    }
    return null;
  }

  function errorInfo(e) {
    const info = { name: 'Error', message: '' };
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const name = e.name;
        const message = e.message;
        const stack = e.stack;
        info.name = typeof name === 'string' ? name : 'Error';
        info.message = typeof message === 'string' ? message : safeString(message);
        if (typeof stack === 'string') {
          info.stack = stack.length > 20000 ? apply(StringSlice, stack, [0, 20000]) : stack;
          const pos = blockPosition(stack);
          if (pos) {
            info.line = pos.line;
            info.column = pos.column;
          }
        }
      } else {
        // `throw 'text'` and friends: report the thrown value's type and text.
        info.name = typeof e;
        info.message = safeString(e);
      }
    } catch {
      info.message = '<unreadable error>';
    }
    return info;
  }

  function isThenable(v) {
    return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
  }

  /** What a reader outside the candidate gets of a value: the codec's copy, read once. */
  function copyOut(v) {
    return codec.decode(codec.encode(v));
  }

  /** A real promise of the copied value of a thenable (awaited as the app would await it). */
  function copyLater(v) {
    return apply(PromiseThen, apply(PromiseResolve, PromiseCtor, [v]), [copyOut]);
  }

  /** A candidate's declaration as a `script` case sees it: functions answer with copies. */
  function guarded(value) {
    if (typeof value !== 'function') return copyOut(value);
    return function guardedCall(...args) {
      if (new.target !== undefined) return construct(value, args);
      const out = apply(value, this, args);
      return isThenable(out) ? copyLater(out) : copyOut(out);
    };
  }

  // ---- the loaded candidate ----
  let current = null;
  /** Promise of the JSON result of the case whose value was a thenable, for __sutureFinish. */
  let pending = null;

  function load(loadJson) {
    current = null;
    pending = null;
    try {
      const r = JSONParse(loadJson);
      const cov = r.coverage === true ? [] : null;
      const c = realm.compartment(cov === null ? undefined : { __sutureCov: cov });
      const names = isArray(r.names) ? r.names : [];
      if (isArray(r.free)) realm.undeclared(c, r.free);
      const loaded = realm.evaluateBlock(c, typeof r.source === 'string' ? r.source : '', typeof r.entry === 'string' ? r.entry : '', names);
      current = { fn: loaded.entry, entryName: r.entry === '' ? '__sutureBlock' : r.entry, names: loaded.names, values: loaded.values, cov };
      return codec.stringify({ ok: true });
    } catch (e) {
      const info = errorInfo(e);
      if (info.name === 'SyntaxError' && realm.isSesRejection(info.message)) info.sesRejection = true;
      return codec.stringify({ ok: false, error: info });
    }
  }

  function drop() {
    current = null;
    pending = null;
  }

  function covered() {
    const ids = [];
    const cov = current === null ? null : current.cov;
    if (cov === null) return ids;
    try {
      const n = cov.length > 1000000 ? 1000000 : cov.length >>> 0;
      for (let i = 0; i < n; i++) if (cov[i]) ids[ids.length] = i;
    } catch {
      /* unreadable coverage: none */
    }
    return ids;
  }

  function resetCoverage() {
    const cov = current === null ? null : current.cov;
    if (cov === null) return;
    try {
      cov.length = 0;
    } catch {
      /* the candidate made it unwritable: coverage will say so by being wrong, not the verdict */
    }
  }

  function record(c, out, args, value) {
    if (c.check === 'script') return;
    // No-throw cases report what they returned too, so the engine can check it against recorded behaviour.
    out.actual = codec.encode(value);
    if (c.argsAfter) {
      const after = [];
      for (let i = 0; i < args.length; i++) after[i] = codec.encode(args[i]);
      out.argsAfter = after;
    }
  }

  function conclude(c, out, asserts) {
    if (asserts !== null && asserts.failed !== null && out.status === 'returned') {
      out.status = 'threw';
      out.error = asserts.failed;
    }
    if (c.coverage) out.covered = covered();
    const text = codec.stringify(out);
    // Refuse oversized results here, so they never cross into the host.
    if (text.length > c.maxResultBytes) return codec.stringify({ status: 'too-large', bytes: text.length });
    return text;
  }

  /** The compartment a `script` case runs in, with the harness's console and guarded declarations. */
  function scriptCompartment(asserts) {
    const assertion = function assert(condition, ...rest) {
      if (condition) return;
      let message = 'Assertion failed';
      if (rest.length) {
        message = '';
        for (let i = 0; i < rest.length; i++) message += (i ? ' ' : '') + safeString(rest[i]);
      }
      const e = new ErrorCtor(message);
      defineProperty(e, 'name', { value: 'AssertionError', writable: true, configurable: true });
      if (asserts.failed === null) asserts.failed = { name: 'AssertionError', message };
      throw e;
    };
    // The names the case calls are the candidate's; its console (and every other standard global)
    // is the harness's: a block declaring `console` or `JSON` at its top level does not reach it.
    const c = realm.compartment();
    const global = c.globalThis;
    for (let i = 0; i < current.names.length; i++) {
      const name = current.names[i];
      if (!(name in global)) defineProperty(global, name, { value: guarded(current.values[i]), writable: true, configurable: true });
    }
    const console = global.console;
    defineProperty(console, 'assert', { value: assertion, writable: false, enumerable: true, configurable: false });
    realm.harden(console);
    return c;
  }

  // Synchronous first: most candidates return a plain value, and a synchronous call saves the
  // host a round trip to the isolate's thread. A thenable result is parked and '' returned; the
  // host then awaits it through __sutureFinish under the wall-clock limit.
  function runSync(caseJson) {
    pending = null;
    const c = JSONParse(caseJson);
    const out = { status: 'returned' };
    const args = [];
    let asserts = null;
    resetCoverage();
    try {
      if (current === null) throw new ErrorCtor('no candidate is loaded');
      let value;
      if (c.check === 'script') {
        asserts = { failed: null };
        const sc = scriptCompartment(asserts);
        // The entry reaches the case under its own name (`__sutureBlock` for a function expression).
        defineProperty(sc.globalThis, current.entryName, { value: guarded(current.fn), writable: true, configurable: true });
        value = sc.evaluate(typeof c.script === 'string' ? c.script : '');
      } else {
        const encodedArgs = isArray(c.args) ? c.args : [];
        // Each argument is its own snapshot (ids are local to it), as Case.args is Encoded[].
        for (let i = 0; i < encodedArgs.length; i++) args[i] = codec.decode(encodedArgs[i]);
        value = apply(current.fn, undefined, args);
      }
      if (isThenable(value) && c.synchronous === true) {
        // A synchronous block's patch runs synchronously in the SDK: no app would see this awaited.
        out.thenable = true;
        return conclude(c, out, asserts);
      }
      if (isThenable(value)) {
        // Await it now, inside this call, so a rejection has a handler before isolated-vm's
        // end-of-call check for unhandled rejections, and its microtasks run under the limit.
        pending = settle(c, out, args, value, asserts);
        return '';
      }
      record(c, out, args, value);
    } catch (e) {
      out.status = 'threw';
      out.error = asserts !== null && asserts.failed !== null ? asserts.failed : errorInfo(e);
    }
    return conclude(c, out, asserts);
  }

  async function settle(c, out, args, value, asserts) {
    out.awaited = true;
    try {
      record(c, out, args, await value);
    } catch (e) {
      out.status = 'threw';
      out.error = asserts !== null && asserts.failed !== null ? asserts.failed : errorInfo(e);
    }
    try {
      return { text: conclude(c, out, asserts) };
    } catch (e) {
      return { error: e };
    }
  }

  async function finish() {
    const p = pending;
    pending = null;
    if (p === null) throw new ErrorCtor('no case is waiting');
    const r = await p;
    if (r.error !== undefined) throw r.error;
    return r.text;
  }

  function init() {
    realm.lock();
    return 'ok';
  }

  defineProperty(g, '__sutureInit', { value: init, configurable: true });
  defineProperty(g, '__sutureLoad', { value: load, configurable: true });
  defineProperty(g, '__sutureRunSync', { value: runSync, configurable: true });
  defineProperty(g, '__sutureFinish', { value: finish, configurable: true });
  defineProperty(g, '__sutureDrop', { value: drop, configurable: true });
})();
