/**
 * Hostile programs, each a function expression of one argument `x` (`{ v: number }`), usable both
 * as a sandbox candidate and as an SDK patch source. Escape attempts that reach anything of the
 * host try to leave a trace the tests can see: the marker file written, `SUTURE_PWNED` set in the
 * environment, a global or a prototype key added.
 */
export type HostileFamily = 'escape' | 'trap' | 'pollution' | 'loop' | 'memory' | 'recursion' | 'flood' | 'size';

export interface HostileProgram {
  name: string;
  family: HostileFamily;
  /** A function expression taking `x`. */
  source: string;
  /** Runs as an async block in the SDK (the patch returns a promise). */
  async?: boolean;
  /**
   * Why the SDK's in-process isolate cannot contain this one (it then runs only in the worker's
   * sandbox, whose host process is killed at the wall-clock limit).
   */
  sdkKnownGap?: string;
}

/** Code that, given anything that looks like Node's `process` or `require`, damages the host visibly. */
function payload(mark: string): string {
  const m = JSON.stringify(mark);
  return `const __pwn = (p, r) => {
    try { p && p.env && (p.env.SUTURE_PWNED = '1'); } catch {}
    try { const fs = r ? r('fs') : p.getBuiltinModule('fs'); fs.writeFileSync(${m}, 'pwned'); } catch {}
    try { (p && p.mainModule && p.mainModule.require)('fs').writeFileSync(${m}, 'pwned'); } catch {}
    return 'tried';
  };`;
}

const WASM_LOOP =
  'new Uint8Array([0,0x61,0x73,0x6d,1,0,0,0,1,4,1,0x60,0,0,3,2,1,0,7,5,1,1,0x66,0,0,0x0a,9,1,7,0,3,0x40,0x0c,0,0x0b,0x0b])';

/** The corpus; `mark` is the file an escape would create. */
export function hostileCorpus(mark: string): HostileProgram[] {
  const pwn = payload(mark);
  const esc = (name: string, body: string, async = false): HostileProgram => ({
    name,
    family: 'escape',
    async,
    source: `${async ? 'async ' : ''}(x) => { ${pwn} try { ${body} } catch (e) { return 'blocked: ' + (e && e.name); } return 'done'; }`,
  });
  const plain = (family: HostileFamily, name: string, source: string, async = false): HostileProgram => ({ name, family, source, async });
  return [
    // ---- escapes ----
    esc('constructor.constructor from a function', `__pwn((() => {}).constructor.constructor('return process')());`),
    esc('constructor.constructor from an argument', `__pwn(x.constructor.constructor('return this.process || process')());`),
    esc('Function("return this") global', `const g = Function('return this')(); __pwn(g.process, g.require);`),
    esc('globalThis.process and require', `__pwn(globalThis.process, globalThis.require);`),
    esc('bare process', `__pwn(process);`),
    esc('bare require', `__pwn(undefined, require);`),
    esc('module.constructor._load', `__pwn(undefined, module.constructor._load);`),
    esc('dynamic import of node:fs', `const fs = await import('node:fs'); fs.writeFileSync(${JSON.stringify(mark)}, 'pwned');`, true),
    esc('dynamic import of a data: URL', `const m = await import('data:text/javascript,export default globalThis.process'); __pwn(m.default);`, true),
    esc('eval and indirect eval', `__pwn(eval('process'), (0, eval)('require'));`),
    esc('Error.prepareStackTrace call sites', `Error.prepareStackTrace = (e, frames) => frames.map((f) => { try { return f.getThis() || f.getFunction(); } catch { return null; } });
      const frames = new Error('x').stack; for (const t of frames) { if (t && t.process) __pwn(t.process); if (t && t.constructor) __pwn(t.constructor.constructor('return process')()); }`),
    esc('Error.captureStackTrace on the argument', `Error.captureStackTrace(x); const s = String(x.stack); if (s.includes('node:')) __pwn(undefined);`),
    esc('arguments.callee.caller walk', `const f = function () { let c = arguments.callee.caller; for (let i = 0; c && i < 10; i++) { __pwn(c.process); c = c.caller; } }; f();`),
    esc('Proxy on the global object', `const p = new Proxy(globalThis, {}); __pwn(p.process, p.require);`),
    esc('Reflect over global own keys', `for (const k of Reflect.ownKeys(globalThis)) { const v = globalThis[k]; if (v && typeof v === 'object' && v.env) __pwn(v); }`),
    esc('walk the global prototype chain', `let o = globalThis; while (o) { for (const k of Object.getOwnPropertyNames(o)) { try { const v = o[k]; if (v && (v.env || v.binding)) __pwn(v); } catch {} } o = Object.getPrototypeOf(o); }`),
    // ---- traps met while the host copies or compares the result ----
    plain('trap', 'getter that loops in the result', `(x) => ({ get v() { for (;;) {} } })`),
    plain('trap', 'getter that reaches for process in the result', `(x) => { ${pwn} return { get v() { return __pwn(globalThis.process); } }; }`),
    plain('trap', 'proxy result whose traps loop', `(x) => new Proxy({}, { ownKeys() { for (;;) {} }, get() { for (;;) {} }, getOwnPropertyDescriptor() { for (;;) {} } })`),
    plain('trap', 'proxy result whose traps throw', `(x) => new Proxy([1, 2], { get() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } })`),
    plain('trap', 'toJSON that loops', `(x) => ({ toJSON() { for (;;) {} } })`),
    plain('trap', 'toString and valueOf that loop', `(x) => ({ toString() { for (;;) {} }, valueOf() { for (;;) {} }, [Symbol.toPrimitive]() { for (;;) {} } })`),
    plain('trap', 'thenable result that loops in then', `(x) => ({ then() { for (;;) {} } })`),
    plain('trap', 'thrown object with a looping message getter', `(x) => { throw { get message() { for (;;) {} }, get name() { for (;;) {} }, get stack() { for (;;) {} } }; }`),
    plain('trap', 'thrown proxy', `(x) => { throw new Proxy({}, { get() { for (;;) {} } }); }`),
    plain('trap', 'prepareStackTrace that loops when the error is read', `(x) => { Error.prepareStackTrace = () => { for (;;) {} }; throw new Error('boom'); }`),
    plain('trap', 'argument mutated into a looping getter', `(x) => { Object.defineProperty(x, 'v', { get() { for (;;) {} }, enumerable: true }); return 1; }`),
    // ---- prototype pollution ----
    plain('pollution', '__proto__ key in the result', `(x) => JSON.parse('{"__proto__": {"polluted": "yes"}, "a": {"__proto__": {"polluted": "yes"}}}')`),
    plain('pollution', 'constructor.prototype keys in the result', `(x) => ({ constructor: { prototype: { polluted: 'yes' } }, a: [{ constructor: { prototype: { polluted: 'yes' } } }] })`),
    plain('pollution', 'own __proto__ key on a mutated argument', `(x) => { Object.defineProperty(x, '__proto__', { value: { polluted: 'yes', v: 0 }, enumerable: true, configurable: true, writable: true }); return 1; }`),
    plain('pollution', 'constructor key on a mutated argument', `(x) => { x.constructor = { prototype: { polluted: 'yes' } }; x.nested = JSON.parse('{"__proto__": {"polluted": "yes"}}'); return x; }`),
    plain('pollution', 'sandbox built-in prototypes polluted', `(x) => { Object.prototype.polluted = 'yes'; Array.prototype.polluted = 'yes'; Function.prototype.polluted = 'yes'; x.__proto__.polluted2 = 'yes'; return [1, { a: 1 }]; }`),
    plain('pollution', 'setter on Object.prototype met while decoding', `(x) => { Object.defineProperty(Object.prototype, 'v', { set() { globalThis.hit = 1; }, get() { return 7; }, configurable: true }); return { v: 1 }; }`),
    // ---- endless loops ----
    plain('loop', 'synchronous loop', `(x) => { for (;;) {} }`),
    plain('loop', 'loop after an await', `async (x) => { await null; for (;;) {} }`, true),
    plain('loop', 'await in an endless loop', `async (x) => { for (;;) await null; }`, true),
    plain('loop', 'promise that never settles', `async (x) => new Promise(() => {})`, true),
    plain('loop', 'loop in a WebAssembly function', `(x) => { new WebAssembly.Instance(new WebAssembly.Module(${WASM_LOOP})).exports.f(); return 1; }`),
    plain('loop', 'Atomics.wait forever', `(x) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(16)), 0, 0); return 1; }`),
    plain('loop', 'loop that swallows exceptions', `(x) => { for (;;) { try { for (;;) {} } catch {} finally { continue; } } }`),
    plain('loop', 'catastrophic regular expression', `(x) => /^(a+)+$/.test('a'.repeat(40) + 'b')`),
    // ---- memory ----
    plain('memory', 'array memory bomb', `(x) => { const a = []; for (;;) a.push(new Array(1e5).fill(1.5)); }`),
    plain('memory', 'string doubling', `(x) => { let s = 'xy'; const keep = []; for (;;) { s = s + s; keep.push(s + '!'); } }`),
    plain('memory', 'huge ArrayBuffer', `(x) => { const bufs = []; for (let i = 0; i < 64; i++) bufs.push(new Uint8Array(256 * 1024 * 1024)); return bufs.length; }`),
    plain('memory', 'object graph bomb', `(x) => { let o = {}; const keep = [o]; for (;;) { const n = { prev: o, a: [o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o] }; keep.push(n); o = n; } }`),
    {
      ...plain('memory', 'Array.prototype.fill near the heap limit', `(x) => { let o = {}; const keep = [o]; for (;;) { const n = { prev: o, a: new Array(100).fill(o) }; keep.push(n); o = n; } }`),
      sdkKnownGap: 'V8 cannot interrupt Array.prototype.fill thrashing at the heap limit (a known isolated-vm limitation): neither the timeout nor dispose() stops it',
    },
    // ---- recursion ----
    plain('recursion', 'deep recursion', `(x) => { const f = (n) => f(n + 1) + 1; return f(0); }`),
    plain('recursion', 'recursion inside a getter of the result', `(x) => { const o = { get v() { return o.v + 1; } }; return o; }`),
    plain('recursion', 'deeply nested result', `(x) => { let o = {}; for (let i = 0; i < 1e6; i++) o = { o }; return o; }`),
    plain('recursion', 'recursive toJSON', `(x) => { const o = { toJSON() { return [o, o]; } }; return o; }`),
    // ---- floods ----
    plain('flood', 'microtask flood', `async (x) => { const f = () => Promise.resolve().then(f); f(); return new Promise(() => {}); }`, true),
    plain('flood', 'ten million promises', `async (x) => { for (let i = 0; i < 1e7; i++) Promise.resolve(i).then(() => {}); return 1; }`, true),
    plain('flood', 'timers and queueMicrotask reach', `(x) => { for (let i = 0; i < 1e6; i++) { try { setTimeout(() => {}, 0); } catch {} try { queueMicrotask(() => { for (;;) {} }); } catch {} } return 1; }`),
    // ---- results too large ----
    plain('size', 'huge string result', `(x) => 'x'.repeat(8 * 1024 * 1024)`),
    plain('size', 'huge array result', `(x) => Array.from({ length: 300000 }, (_, i) => ({ i, s: 'abcdefghij' }))`),
    plain('size', 'argument grown huge', `(x) => { x.big = Array.from({ length: 200000 }, (_, i) => 'item ' + i); return 1; }`),
  ];
}
