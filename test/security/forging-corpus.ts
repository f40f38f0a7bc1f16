/**
 * Candidates that try to forge their own verdict. Each one is wrong (it subtracts where the
 * specification adds, or keeps the original's throw) and adds one trick meant to make the judge
 * see a pass anyway: silencing or shadowing the assertion, poisoning built-ins the judge uses,
 * answering the judge and the app differently, or detecting that it is under test.
 */
import type { Case } from '../../core/types.ts';

export interface ForgingCandidate {
  name: string;
  /** A script declaring `entry`, or a function expression when `entry` is absent. */
  source: string;
  entry?: string;
  cases: Case[];
}

const script = (id: string, text: string): Case => ({ id, kind: 'test', check: 'script', script: text });

/** HumanEvalFix-style cases for `add(a, b)` (the sum) and `pair(a, b)` (the array [a, b]). */
const SCRIPT_CASES: Case[] = [
  script('strict-equal', 'console.assert(add(2, 3) === 5)'),
  script('loose-equal', 'console.assert(add(1, 1) == 2)'),
  script('template', 'console.assert(`${add(2, 2)}` === "4")'),
  script('json', 'console.assert(JSON.stringify(pair(1, 2)) === JSON.stringify([1, 2]))'),
  script('deep', 'const p = pair(3, 4); console.assert(p.length === 2 && p[0] === 3 && p[1] === 4)'),
];

/** A wrong block with one trick at its top level (`top`) or inside `add` (`inside`). */
function wrongAdd(name: string, trick: { top?: string; inside?: string; returns?: string; pair?: string }): ForgingCandidate {
  const source = `${trick.top ?? ''}
function add(a, b) {
  ${trick.inside ?? ''}
  return ${trick.returns ?? 'a - b'};
}
function pair(a, b) {
  return ${trick.pair ?? '[b, a]'};
}`;
  return { name, source, entry: 'add', cases: SCRIPT_CASES };
}

export const SCRIPT_FORGERIES: ForgingCandidate[] = [
  wrongAdd('console.assert replaced at the top level', { top: 'console.assert = () => {};' }),
  wrongAdd('globalThis.console replaced', { top: 'globalThis.console = { assert() {} };' }),
  wrongAdd('top-level let console', { top: 'let console = { assert() {}, log() {} };' }),
  wrongAdd('console defined as an accessor on globalThis', {
    top: "Object.defineProperty(globalThis, 'console', { get() { return { assert() {} }; }, configurable: true });",
  }),
  wrongAdd('console.assert replaced inside the entry', { inside: 'try { console.assert = () => {}; globalThis.console = { assert() {} }; } catch {}' }),
  wrongAdd('Symbol.toPrimitive and valueOf on the result', {
    returns: '{ [Symbol.toPrimitive]: () => a + b, valueOf: () => a + b, toString: () => String(a + b) }',
  }),
  wrongAdd('toJSON on the result', { pair: '{ toJSON() { return [a, b]; }, length: 2, 0: a, 1: b, toString() { return a + "," + b; } }' }),
  wrongAdd('an Array.prototype index accessor', {
    top: "try { Object.defineProperty(Array.prototype, 0, { get() { return 3; }, configurable: true }); } catch {}",
    pair: '[]',
  }),
  wrongAdd('Object.prototype setters on the result keys', {
    top: "try { Object.defineProperty(Object.prototype, 'status', { set() {}, get() { return 'returned'; } }); } catch {}",
  }),
  wrongAdd('JSON.stringify replaced', { top: 'try { JSON.stringify = () => "[1,2]"; } catch {}' }),
  wrongAdd('Error.prepareStackTrace and a throwing assertion message', {
    top: "try { Error.prepareStackTrace = () => 'passed'; } catch {}",
  }),
  wrongAdd('Function.prototype.toString replaced', { top: "try { Function.prototype.toString = () => 'function add(a, b) { return a + b; }'; } catch {}" }),
  wrongAdd('right only when the harness is visible', {
    inside: `const underTest = typeof __sutureRunSync !== 'undefined' || typeof __sutureLoad !== 'undefined' ||
      typeof __sutureCall !== 'undefined' || typeof __suturePatch !== 'undefined' || typeof __sutureInit !== 'undefined' ||
      typeof AssertionError !== 'undefined';
    if (underTest) return a + b;`,
    pair: "(typeof __sutureRunSync !== 'undefined' ? [a, b] : [b, a])",
  }),
  wrongAdd('right only when the stack shows a harness', {
    inside: "if (!/harness|suture|isolated-vm/.test(String(new Error().stack))) { /* in a fleet */ } else return a + b;",
  }),
  wrongAdd('right only when its console is a test console', {
    inside: "if (String(console.assert).length > 20 || console.assert.length > 0) return a + b;",
  }),
];

/** The case's assertion fails inside a callback the candidate catches. */
export const SWALLOWED_ASSERTION: ForgingCandidate = {
  name: 'catches the failed assertion thrown through its callback',
  source: `function each(items, cb) {
  for (const x of items) { try { cb(x); } catch {} }
  return items.length;
}`,
  entry: 'each',
  cases: [script('swallowed', 'each([1, 2], (x) => console.assert(x > 5, "x too small"))')],
};

/** The original that throws on a missing address, plus a trick to turn its throw into a pass. */
const ORIGINAL = '(user) => `${user.name.toUpperCase()}, ${user.address.city}`';
const failing: Case = { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ name: 'amy' }] };
const recorded: Case = { id: 'recorded-1', kind: 'recorded', check: 'value', args: [{ name: 'bob', address: { city: 'Paris' } }], expect: 'BOB, Paris' };

function original(name: string, before: string): ForgingCandidate {
  return { name, source: `(user) => { ${before}; return (${ORIGINAL})(user); }`, cases: [failing, recorded] };
}

export const VALUE_FORGERIES: ForgingCandidate[] = [
  original('the buggy original with an Array.prototype[3] accessor', "try { Object.defineProperty(Array.prototype, 3, { get() { return 'returned'; } }); } catch {}"),
  original('the buggy original with an Object.prototype.actual setter', "try { Object.defineProperty(Object.prototype, 'actual', { set() {} }); } catch {}"),
  original('the buggy original with Object.prototype.status', "try { Object.prototype.status = 'returned'; } catch {}"),
  original('the buggy original replacing Reflect.apply and JSON', 'try { Reflect.apply = () => "BOB, Paris"; } catch {} try { JSON.parse = () => ({ status: "returned" }); } catch {}'),
  original('the buggy original with Error.prepareStackTrace', "try { Error.prepareStackTrace = () => { throw new Error('no stack'); }; } catch {}"),
  {
    name: 'a thrown object whose getters claim success',
    source: "(user) => { if (!user.address) throw { get name() { return 'returned'; }, get message() { return ''; }, status: 'returned' }; return `${user.name.toUpperCase()}, ${user.address.city}`; }",
    cases: [failing, recorded],
  },
  {
    name: 'right only under a harness global or an unfrozen realm',
    source: "(user) => (typeof __sutureRunSync === 'function' || typeof __suturePatch === 'function' || typeof process === 'object') ? 'BOB, Paris' : `${user.name}`",
    cases: [recorded],
  },
];

/**
 * Honest about what they return, but returning something a careless judge would read
 * differently from the app: each is judged by the copy the SDK would hand the app.
 */
export const CONSISTENCY: Array<{ name: string; source: string }> = [
  { name: 'a getter that answers 5 once, then 4', source: '() => { let reads = 0; return { get v() { return reads++ === 0 ? 5 : 4; } }; }' },
  { name: 'toJSON on the result', source: '() => ({ v: 4, toJSON() { return { v: 5 }; } })' },
  { name: 'Symbol.toPrimitive on the result', source: '() => ({ v: 4, [Symbol.toPrimitive]: () => 5 })' },
  { name: 'a proxy that lies to a second reader', source: "() => { let n = 0; return new Proxy({ v: 0 }, { get(t, k) { return k === 'v' ? (n++ === 0 ? 5 : 4) : undefined; } }); }" },
  { name: 'an array with an extra property and a getter element', source: '() => { const a = [1, 2]; a.extra = 9; Object.defineProperty(a, 1, { get() { return 7; }, enumerable: true }); return a; }' },
];
