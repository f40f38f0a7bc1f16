/*
 * The in-sandbox harness: a plain script run in every fresh sandbox context right after
 * core/snapshot-codec.js and before the candidate. It installs two non-writable globals the
 * sandbox host calls (nothing else crosses the boundary; arguments and results are JSON strings):
 *
 *   __sutureBind(entry)  -> JSON {ok:true} | {ok:false,error}: find the entry function
 *                           ('' = the `__sutureBlock` binding of an entry-less function expression)
 *   __sutureRunSync(caseJson) -> JSON {status:'returned'|'threw'|'too-large', actual?,
 *                           argsAfter?, error?, covered?, bytes?}, or '' when the case's value is a
 *                           thenable: then
 *   __sutureFinish()      -> Promise<JSON> of the same shape, once that thenable settles
 *
 * The built-ins it needs are captured here, before the candidate can replace them, so a
 * candidate that monkey-patches globals changes its own behaviour, not the harness's verdict.
 */
(function installSutureHarness() {
  'use strict';
  const g = globalThis;
  const codec = createSnapshotCodec({});
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const JSONParse = JSON.parse;
  const isArray = Array.isArray;
  const indirectEval = g.eval;
  const SafeString = String;
  const StringIndexOf = String.prototype.indexOf;
  const StringSlice = String.prototype.slice;
  const StringCharCodeAt = String.prototype.charCodeAt;

  class AssertionError extends Error {
    constructor(message) {
      super(message);
      defineProperty(this, 'name', { value: 'AssertionError', writable: true, configurable: true });
    }
  }
  const noop = function () {};
  const quietConsole = {
    log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop, dir: noop, dirxml: noop,
    table: noop, group: noop, groupCollapsed: noop, groupEnd: noop, time: noop, timeEnd: noop,
    timeLog: noop, count: noop, countReset: noop, clear: noop,
    assert(condition, ...rest) {
      if (condition) return;
      let message = 'Assertion failed';
      if (rest.length) {
        message = '';
        for (let i = 0; i < rest.length; i++) message += (i ? ' ' : '') + safeString(rest[i]);
      }
      throw new AssertionError(message);
    },
  };
  defineProperty(g, 'console', { value: quietConsole, writable: true, configurable: true });
  defineProperty(g, 'AssertionError', { value: AssertionError, writable: true, configurable: true });

  function safeString(v) {
    try {
      return typeof v === 'symbol' ? 'Symbol()' : SafeString(v);
    } catch {
      return '<unprintable>';
    }
  }

  /** 1-based line/column of the innermost `block.js` frame in a V8 stack, if any. */
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
      if (!digits) continue;
      return { line: ln, column: col };
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

  function isIdentifier(s) {
    if (typeof s !== 'string' || s.length === 0 || s.length > 200) return false;
    for (let i = 0; i < s.length; i++) {
      const c = apply(StringCharCodeAt, s, [i]);
      const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95 || c > 127 || (i > 0 && c >= 48 && c <= 57);
      if (!ok) return false;
    }
    return true;
  }

  let entryFn = null;

  function bind(entry) {
    try {
      const name = entry === '' ? '__sutureBlock' : entry;
      if (!isIdentifier(name)) {
        return codec.stringify({ ok: false, error: { name: 'EntryNotFound', message: 'entry is not an identifier: ' + safeString(entry) } });
      }
      // A global lexical binding (`const f = ...`) is not a property of globalThis, but a
      // separate script naming it sees it.
      const fn = indirectEval(name);
      if (typeof fn !== 'function') {
        return codec.stringify({ ok: false, error: { name: 'EntryNotFound', message: name + ' is ' + typeof fn + ', not a function' } });
      }
      entryFn = fn;
      return codec.stringify({ ok: true });
    } catch (e) {
      const info = errorInfo(e);
      if (info.name === 'ReferenceError') info.name = 'EntryNotFound';
      return codec.stringify({ ok: false, error: info });
    }
  }

  function covered() {
    const ids = [];
    try {
      const cov = g.__sutureCov;
      if (cov === null || typeof cov !== 'object') return ids;
      const n = cov.length > 1000000 ? 1000000 : cov.length >>> 0;
      for (let i = 0; i < n; i++) if (cov[i]) ids[ids.length] = i;
    } catch {
      /* the candidate replaced __sutureCov with something hostile */
    }
    return ids;
  }

  /** Promise of the JSON result of the case whose value was a thenable, for __sutureFinish. */
  let pending = null;

  function isThenable(v) {
    return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';
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

  function conclude(c, out) {
    if (c.coverage) out.covered = covered();
    const text = codec.stringify(out);
    // Refuse oversized results here, so they never cross into the host.
    if (text.length > c.maxResultBytes) return codec.stringify({ status: 'too-large', bytes: text.length });
    return text;
  }

  // Synchronous first: most candidates return a plain value, and a synchronous call saves the
  // host a round trip to the isolate's thread. A thenable result is parked and '' returned; the
  // host then awaits it through __sutureFinish under the wall-clock limit.
  function runSync(caseJson) {
    pending = null;
    const c = JSONParse(caseJson);
    const out = { status: 'returned' };
    const args = [];
    if (c.coverage) defineProperty(g, '__sutureCov', { value: [], writable: true, configurable: true });
    try {
      let value;
      if (c.check === 'script') {
        value = indirectEval(c.script);
      } else {
        if (entryFn === null) throw new Error('entry function is not bound');
        const encodedArgs = isArray(c.args) ? c.args : [];
        // Each argument is its own snapshot (ids are local to it), as Case.args is Encoded[].
        for (let i = 0; i < encodedArgs.length; i++) args[i] = codec.decode(encodedArgs[i]);
        value = apply(entryFn, undefined, args);
      }
      if (isThenable(value)) {
        // Await it now, inside this call, so a rejection has a handler before isolated-vm's
        // end-of-call check for unhandled rejections, and its microtasks run under the limit.
        pending = settle(c, out, args, value);
        return '';
      }
      record(c, out, args, value);
    } catch (e) {
      out.status = 'threw';
      out.error = errorInfo(e);
    }
    return conclude(c, out);
  }

  async function settle(c, out, args, value) {
    try {
      record(c, out, args, await value);
    } catch (e) {
      out.status = 'threw';
      out.error = errorInfo(e);
    }
    try {
      return { text: conclude(c, out) };
    } catch (e) {
      return { error: e };
    }
  }

  async function finish() {
    const p = pending;
    pending = null;
    if (p === null) throw new Error('no case is waiting');
    const r = await p;
    if (r.error !== undefined) throw r.error;
    return r.text;
  }

  defineProperty(g, '__sutureBind', { value: bind });
  defineProperty(g, '__sutureRunSync', { value: runSync });
  defineProperty(g, '__sutureFinish', { value: finish });
})();
