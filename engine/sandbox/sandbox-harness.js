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
 *                                read but never declared), coverage, world? (the first case's, so
 *                                a top level reading a `uses` name evaluates)}
 *   __sutureRunSync(caseJson) -> JSON {status:'returned'|'threw'|'too-large', actual?, argsAfter?,
 *                                error?, covered?, bytes?, world?}, or '' when the case's value is
 *                                a thenable: then
 *   __sutureFinish()          -> Promise<JSON> of the same shape, once that thenable settles
 *   __sutureDrop()            forget the loaded candidate
 *
 * How a verdict stays out of the candidate's reach:
 * - the harness and codec live in the start compartment, whose intrinsics lockdown froze, so no
 *   accessor on a prototype, replaced method or shadowed global reaches the code that encodes
 *   the result or decides the verdict;
 * - a result is read once, by the codec, into data: that copy is what the host compares, as it is
 *   what an app gets from a patch in the SDK (getters, toJSON, Symbol.toPrimitive, valueOf and
 *   thenables give the judge what they would give the app);
 * - a `script` case runs in a compartment of its own whose `console.assert` belongs to the
 *   harness; the candidate's declarations reach it as guarded functions whose answers are copied
 *   the same way, and a failed assertion fails the case even if something caught the throw;
 * - a case with a world (engine/sandbox/world-replay.ts) runs in a compartment of its own in which
 *   each `uses` name is a fresh decoded copy, and every function in it a replayer answering from
 *   the case's call log; what the candidate called, and the first call the log could not answer,
 *   are kept here, so a candidate that catches the replayer's error still has its miss reported.
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
  const PromiseReject = Promise.reject;
  const ObjectKeys = Object.keys;
  const gOPD = Object.getOwnPropertyDescriptor;
  const hasOwn = Object.hasOwn;
  const SafeSet = Set;
  const SetHas = Set.prototype.has;
  const SetAdd = Set.prototype.add;
  const StringSplit = String.prototype.split;
  const ERROR_CTORS = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
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

  // ---- the world of a case ----

  function isObjectLike(v) {
    return v !== null && (typeof v === 'object' || typeof v === 'function');
  }

  function namedError(info, fallbackName) {
    const name = info !== null && typeof info === 'object' && typeof info.name === 'string' ? info.name : fallbackName;
    const message = info !== null && typeof info === 'object' && typeof info.message === 'string' ? info.message : '';
    const Ctor = hasOwn(ERROR_CTORS, name) ? ERROR_CTORS[name] : ErrorCtor;
    const e = new Ctor(message);
    if (Ctor === ErrorCtor && name !== 'Error') defineProperty(e, 'name', { value: name, writable: true, configurable: true });
    return e;
  }

  function sameArgs(actual, logged) {
    if (!isArray(logged) || actual.length !== logged.length) return false;
    for (let i = 0; i < actual.length; i++) if (!codec.equal(actual[i], logged[i])) return false;
    return true;
  }

  /** The logged answer of a call: returned or thrown, or for an async call a promise settled so. */
  function answer(call) {
    const value = call.error === undefined && hasOwn(call, 'result') ? codec.decode(call.result) : undefined;
    if (call.async === true) {
      return call.error !== undefined ? apply(PromiseReject, PromiseCtor, [namedError(call.error, 'Error')]) : apply(PromiseResolve, PromiseCtor, [value]);
    }
    if (call.error !== undefined) throw namedError(call.error, 'Error');
    return value;
  }

  /**
   * A function of the world at `path`: answers a call equal (path and arguments, by snapshot) to
   * the next unanswered logged call with its logged answer; any other call is a miss, recorded in
   * `state` and thrown at the caller.
   */
  function replayer(state, path, name) {
    const replay = function (...args) {
      const encoded = [];
      for (let i = 0; i < args.length; i++) encoded[i] = codec.encode(args[i]);
      const at = state.next;
      const logged = !state.closed && at < state.calls.length ? state.calls[at] : null;
      if (logged !== null && logged.path === path && sameArgs(encoded, logged.args)) {
        state.next = at + 1;
        return answer(logged);
      }
      if (!state.closed) {
        state.misses++;
        if (state.miss === null) state.miss = { at, path, args: encoded };
      }
      throw namedError({ name: 'ReplayMiss', message: 'replay miss: ' + path + '() is not the next recorded call' }, 'ReplayMiss');
    };
    defineProperty(replay, 'name', { value: name, configurable: true });
    return replay;
  }

  /** What stands for the function at `path`: its pure helper's code, or a replayer. */
  function standIn(state, path) {
    const parts = apply(StringSplit, path, ['.']);
    const name = parts[parts.length - 1];
    if (hasOwn(state.helpers, path) && typeof state.helpers[path] === 'string') {
      // The host checked it is one function reading no outside name and no `this`.
      const fn = state.compartment.evaluate('(\n' + state.helpers[path] + '\n)');
      if (typeof fn === 'function') return fn;
    }
    return replayer(state, path, name);
  }

  /** Replaces every function (a decoded stand-in) under `value` by its stand-in, in place. */
  function wire(state, value, path, depth, seen) {
    if (typeof value === 'function') return standIn(state, path);
    if (!isObjectLike(value) || depth > 64 || apply(SetHas, seen, [value])) return value;
    apply(SetAdd, seen, [value]);
    const keys = ObjectKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const d = gOPD(value, keys[i]);
      if (d === undefined || !hasOwn(d, 'value')) continue;
      if (typeof d.value === 'function') {
        try {
          defineProperty(value, keys[i], { value: standIn(state, path + '.' + keys[i]), writable: true, enumerable: d.enumerable, configurable: true });
        } catch {
          /* a frozen decoded value keeps its stand-in */
        }
      } else if (isObjectLike(d.value)) wire(state, d.value, path + '.' + keys[i], depth + 1, seen);
    }
    return value;
  }

  /** The value a path's first segment names: a `uses` name or `this`. */
  function rootOf(state, root) {
    if (root === 'this') return state.hasThis ? { value: state.receiver } : null;
    for (let i = 0; i < state.names.length; i++) if (state.names[i] === root) return { value: state.global[root] };
    return null;
  }

  /**
   * A function the log (or a shipped helper) names that the encoded value does not hold, such as a
   * method of a class instance (encodings keep own data only), is added where its path ends, not
   * enumerable, so the effects compared stay the data.
   */
  function addAt(state, path) {
    const parts = apply(StringSplit, path, ['.']);
    if (parts.length < 2) return;
    const root = rootOf(state, parts[0]);
    if (root === null) return;
    let node = root.value;
    for (let i = 1; i < parts.length - 1; i++) {
      if (!isObjectLike(node)) return;
      const d = gOPD(node, parts[i]);
      if (d === undefined || !hasOwn(d, 'value')) return;
      node = d.value;
    }
    const key = parts[parts.length - 1];
    if (!isObjectLike(node) || hasOwn(node, key)) return;
    try {
      defineProperty(node, key, { value: standIn(state, path), writable: true, enumerable: false, configurable: true });
    } catch {
      /* not extensible: the call will fail as it would on this value */
    }
  }

  /** Defines the world's `uses` names in compartment `c`; the receiver and the call log in the state returned. */
  function defineWorld(c, world) {
    const global = c.globalThis;
    const calls = isArray(world.calls) ? world.calls : [];
    const state = {
      calls, next: 0, miss: null, misses: 0, closed: false, compartment: c, global, names: [],
      helpers: world.helpers !== null && typeof world.helpers === 'object' ? world.helpers : {},
      hasThis: world.hasThis === true, receiver: undefined, after: world.after === true,
    };
    const uses = world.uses !== null && typeof world.uses === 'object' ? world.uses : {};
    const names = ObjectKeys(uses);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      // Each case decodes its own copy: what one case's candidate does to a value no other case sees.
      const value = wire(state, codec.decode(uses[name]), name, 0, new SafeSet());
      try {
        defineProperty(global, name, { value, writable: true, enumerable: false, configurable: false });
        state.names[state.names.length] = name;
      } catch {
        /* a name the compartment holds unconfigurable (globalThis, undefined...) is not the world's */
      }
    }
    if (state.hasThis) state.receiver = wire(state, codec.decode(world.this), 'this', 0, new SafeSet());
    for (let i = 0; i < calls.length; i++) if (calls[i] !== null && typeof calls[i].path === 'string') addAt(state, calls[i].path);
    const helperPaths = ObjectKeys(state.helpers);
    for (let i = 0; i < helperPaths.length; i++) addAt(state, helperPaths[i]);
    return state;
  }

  /** What the host judges of a world: calls answered, the first miss, the values after the run. */
  function worldReport(state) {
    state.closed = true;
    const w = { calls: state.next };
    if (state.miss !== null) {
      w.miss = state.miss;
      w.misses = state.misses;
    }
    if (state.after) {
      const after = {};
      for (let i = 0; i < state.names.length; i++) after[state.names[i]] = codec.encode(state.global[state.names[i]]);
      w.usesAfter = after;
      if (state.hasThis) w.thisAfter = codec.encode(state.receiver);
    }
    return w;
  }

  // ---- the loaded candidate ----
  let current = null;
  /** Promise of the JSON result of the case whose value was a thenable, for __sutureFinish. */
  let pending = null;

  /** Evaluates the loaded candidate in a fresh compartment, with `world`'s names defined when given. */
  function evaluateCandidate(spec, world) {
    const c = realm.compartment(spec.cov === null ? undefined : { __sutureCov: spec.cov });
    const replay = world !== null && typeof world === 'object' ? defineWorld(c, world) : null;
    realm.undeclared(c, spec.free);
    const loaded = realm.evaluateBlock(c, spec.source, spec.entry, spec.names);
    return { fn: loaded.entry, entryName: spec.entry === '' ? '__sutureBlock' : spec.entry, names: loaded.names, values: loaded.values, cov: spec.cov, replay, spec };
  }

  function load(loadJson) {
    current = null;
    pending = null;
    try {
      const r = JSONParse(loadJson);
      const spec = {
        source: typeof r.source === 'string' ? r.source : '',
        entry: typeof r.entry === 'string' ? r.entry : '',
        names: isArray(r.names) ? r.names : [],
        free: isArray(r.free) ? r.free : [],
        cov: r.coverage === true ? [] : null,
      };
      current = evaluateCandidate(spec, r.world === undefined ? null : r.world);
      if (current.replay !== null) current.replay.closed = true;
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

  function conclude(c, out, asserts, cand) {
    if (asserts !== null && asserts.failed !== null && out.status === 'returned') {
      out.status = 'threw';
      out.error = asserts.failed;
    }
    if (cand !== null && cand.replay !== null) out.world = worldReport(cand.replay);
    if (c.coverage) out.covered = covered();
    const text = codec.stringify(out);
    // Refuse oversized results here, so they never cross into the host.
    if (text.length > c.maxResultBytes) return codec.stringify({ status: 'too-large', bytes: text.length });
    return text;
  }

  /** The compartment a `script` case runs in, with the harness's console and guarded declarations. */
  function scriptCompartment(asserts, cand) {
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
    for (let i = 0; i < cand.names.length; i++) {
      const name = cand.names[i];
      if (!(name in global)) defineProperty(global, name, { value: guarded(cand.values[i]), writable: true, configurable: true });
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
    let cand = null;
    resetCoverage();
    try {
      if (current === null) throw new ErrorCtor('no candidate is loaded');
      // A case with a world gets the candidate evaluated again, with the world's names defined.
      if (c.world !== undefined && c.world !== null) {
        cand = evaluateCandidate(current.spec, c.world);
      } else cand = current;
      let value;
      if (c.check === 'script') {
        asserts = { failed: null };
        const sc = scriptCompartment(asserts, cand);
        // The entry reaches the case under its own name (`__sutureBlock` for a function expression).
        defineProperty(sc.globalThis, cand.entryName, { value: guarded(cand.fn), writable: true, configurable: true });
        value = sc.evaluate(typeof c.script === 'string' ? c.script : '');
      } else {
        const encodedArgs = isArray(c.args) ? c.args : [];
        // Each argument is its own snapshot (ids are local to it), as Case.args is Encoded[].
        for (let i = 0; i < encodedArgs.length; i++) args[i] = codec.decode(encodedArgs[i]);
        const receiver = cand.replay !== null && cand.replay.hasThis ? cand.replay.receiver : undefined;
        value = apply(cand.fn, receiver, args);
      }
      if (isThenable(value) && c.synchronous === true) {
        // A synchronous block's patch runs synchronously in the SDK: no app would see this awaited.
        out.thenable = true;
        return conclude(c, out, asserts, cand);
      }
      if (isThenable(value)) {
        // Await it now, inside this call, so a rejection has a handler before isolated-vm's
        // end-of-call check for unhandled rejections, and its microtasks run under the limit.
        pending = settle(c, out, args, value, asserts, cand);
        return '';
      }
      record(c, out, args, value);
    } catch (e) {
      out.status = 'threw';
      out.error = asserts !== null && asserts.failed !== null ? asserts.failed : errorInfo(e);
    }
    return conclude(c, out, asserts, cand);
  }

  async function settle(c, out, args, value, asserts, cand) {
    out.awaited = true;
    try {
      record(c, out, args, await value);
    } catch (e) {
      out.status = 'threw';
      out.error = asserts !== null && asserts.failed !== null ? asserts.failed : errorInfo(e);
    }
    try {
      return { text: conclude(c, out, asserts, cand) };
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
