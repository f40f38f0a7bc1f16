import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createSnapshotCodec,
  decodeSnapshot,
  DEFAULT_REDACT_KEYS,
  encodeSnapshot,
  normaliseSnapshot,
  snapshotEqual,
  stringifySnapshot,
  SNAPSHOT_CODEC_SOURCE,
} from '../../core/snapshot.ts';

/** encode → JSON text → parse → decode, as the wire does. */
function roundTrip(value: unknown): { encoded: unknown; back: unknown } {
  const encoded = JSON.parse(JSON.stringify(encodeSnapshot(value)));
  return { encoded, back: decodeSnapshot(encoded) };
}

test('plain JSON values encode as themselves', () => {
  const v = { a: 1, b: 'x', c: [true, null, 2.5, { d: [] }], e: {} };
  assert.deepEqual(encodeSnapshot(v), v);
  assert.deepEqual(roundTrip(v).back, v);
});

test('special numbers, undefined and bigint round-trip', () => {
  for (const v of [NaN, -0, Infinity, -Infinity, undefined, 123n, -(2n ** 80n)]) {
    const { encoded, back } = roundTrip(v);
    assert.ok(Object.is(back, v), `${String(v)} came back as ${String(back)}`);
    assert.equal(typeof encoded, 'object');
  }
  assert.deepEqual(encodeSnapshot(-0), { $t: 'number', v: '-0' });
  assert.deepEqual(encodeSnapshot(12n), { $t: 'bigint', v: '12' });
  const { back } = roundTrip({ u: undefined });
  assert.ok(Object.hasOwn(back as object, 'u'), 'an undefined property keeps its key');
});

test('Date, RegExp, Map, Set round-trip', () => {
  const { back: d } = roundTrip(new Date(1234567));
  assert.ok(d instanceof Date && d.getTime() === 1234567);
  const { back: bad, encoded } = roundTrip(new Date(NaN));
  assert.deepEqual(encoded, { $t: 'date', v: 'Invalid' });
  assert.ok(bad instanceof Date && Number.isNaN(bad.getTime()));
  const { back: re } = roundTrip(/a+b/gu);
  assert.ok(re instanceof RegExp && re.source === 'a+b' && re.flags === 'gu');
  const key = { k: 1 };
  const { back: m } = roundTrip(new Map<unknown, unknown>([['a', 1], [key, NaN]]));
  assert.ok(m instanceof Map);
  assert.equal(m.get('a'), 1);
  const [k2, v2] = [...m.entries()][1];
  assert.deepEqual(k2, { k: 1 });
  assert.ok(Number.isNaN(v2));
  const { back: s } = roundTrip(new Set([1, 'x', undefined]));
  assert.deepEqual([...(s as Set<unknown>)], [1, 'x', undefined]);
});

test('typed arrays, ArrayBuffer and DataView round-trip', () => {
  const cases: unknown[] = [
    new Uint8Array([1, 2, 255]), new Int16Array([-5, 7]), new Float64Array([NaN, -0, 1.5]),
    new BigInt64Array([-3n, 9n]), new Uint8ClampedArray([3]),
  ];
  for (const v of cases) {
    const { back } = roundTrip(v);
    assert.equal((back as object).constructor.name, (v as object).constructor.name);
    assert.deepEqual([...(back as Iterable<unknown>)].map(String), [...(v as Iterable<unknown>)].map(String));
  }
  assert.ok(Object.is((roundTrip(new Float64Array([-0])).back as Float64Array)[0], -0));
  const buf = new Uint8Array([9, 8, 7]).buffer;
  const { back: b2, encoded } = roundTrip(buf);
  assert.deepEqual(encoded, { $t: 'typed', type: 'ArrayBuffer', v: [9, 8, 7] });
  assert.deepEqual([...new Uint8Array(b2 as ArrayBuffer)], [9, 8, 7]);
  const { back: dv } = roundTrip(new DataView(buf, 1, 2));
  assert.ok(dv instanceof DataView && dv.getUint8(0) === 8 && dv.byteLength === 2);
});

test('errors keep name, message, class, cause and own props; stack is ignored by equality', () => {
  class ValidationError extends Error {
    code = 'E_BAD';
  }
  const err = new ValidationError('nope', { cause: new RangeError('inner') });
  const { encoded, back } = roundTrip(err);
  const e = back as Error & { code: string; cause: Error };
  assert.equal(e.constructor.name, 'ValidationError');
  assert.ok(e instanceof Error);
  assert.equal(e.message, 'nope');
  assert.equal(e.code, 'E_BAD');
  assert.ok(e.cause instanceof RangeError && e.cause.message === 'inner');
  assert.equal(e.stack, err.stack);
  const other = { ...(encoded as object), stack: 'elsewhere' };
  assert.ok(snapshotEqual(encoded, other));
  const { back: t } = roundTrip(new TypeError('t'));
  assert.ok(t instanceof TypeError && (t as Error).name === 'TypeError');
});

test('functions and symbols become named opaque markers; the stand-in throws when called', () => {
  function handler() {
    return 1;
  }
  const { encoded, back } = roundTrip({ handler, s: Symbol('tag'), arrow: () => 2 });
  assert.deepEqual(encoded, {
    handler: { $t: 'function', name: 'handler' },
    s: { $t: 'symbol', description: 'tag' },
    arrow: { $t: 'function', name: 'arrow' },
  });
  const b = back as { handler: () => unknown; s: symbol };
  assert.equal(typeof b.handler, 'function');
  assert.equal(b.handler.name, 'handler');
  assert.throws(() => b.handler(), (e: Error & { code?: string }) => e.name === 'SnapshotError' && e.code === 'SNAPSHOT_STAND_IN');
  assert.equal(typeof b.s, 'symbol');
  assert.equal(b.s.description, 'tag');
});

test('class instances keep their constructor name; null-prototype objects stay null-prototype', () => {
  class Player {
    constructor(public name: string, public hp: number) {}
  }
  const { encoded, back } = roundTrip({ p: new Player('ann', 3), n: Object.assign(Object.create(null), { x: 1 }) });
  assert.deepEqual((encoded as { p: unknown }).p, { $t: 'object', class: 'Player', props: { name: 'ann', hp: 3 } });
  const b = back as { p: Player; n: object };
  assert.equal(b.p.constructor.name, 'Player');
  assert.equal(b.p.name, 'ann');
  assert.equal(Object.getPrototypeOf(b.n), null);
  assert.deepEqual(encodeSnapshot(back), encoded);
});

test('shared references and cycles are preserved', () => {
  const shared = { v: 1 };
  const root: Record<string, unknown> = { a: shared, b: shared, list: [shared] };
  root.self = root;
  const arr: unknown[] = [1];
  arr.push(arr);
  root.arr = arr;
  const { encoded, back } = roundTrip(root);
  const b = back as { a: object; b: object; list: object[]; self: unknown; arr: unknown[] };
  assert.equal(b.a, b.b);
  assert.equal(b.list[0], b.a);
  assert.equal(b.self, b);
  assert.equal(b.arr[1], b.arr);
  assert.equal(JSON.stringify(encodeSnapshot(back)), JSON.stringify(encoded));
});

test('sparse arrays keep their holes', () => {
  // eslint-disable-next-line no-sparse-arrays
  const { encoded, back } = roundTrip([1, , 3, , ]);
  assert.deepEqual(encoded, [1, { $t: 'hole' }, 3, { $t: 'hole' }]);
  const b = back as unknown[];
  assert.equal(b.length, 4);
  assert.ok(!(1 in b) && !(3 in b) && b[2] === 3);
});

test('plain objects with a "$t" or "$id" key are escaped', () => {
  const v = { $t: 'date', v: 'not a date', $id: 7 };
  const { encoded, back } = roundTrip(v);
  assert.deepEqual(encoded, { $t: 'object', props: { $t: 'date', v: 'not a date', $id: 7 } });
  assert.deepEqual(back, v);
  // A literal "$id" inside props is data, not an identity, for comparison too.
  assert.ok(!snapshotEqual(encoded, { $t: 'object', props: { $t: 'date', v: 'not a date', $id: 8 } }));
});

test('secrets are redacted by key, with word-aware default patterns and a configurable list', () => {
  const v = {
    password: 'p', userPassword: 'p', passwd: 'p', token: 't', accessToken: 't', 'X-API-Key': 'k', api_key: 'k',
    apiKey: 'k', Authorization: 'Bearer x', cookie: 'c', privateKey: 'pk', client_secret: 's',
    tokens: ['kept'], tokenizer: 'kept', author: 'kept', nested: { sessionId: 'sid' },
  };
  const enc = encodeSnapshot(v) as Record<string, unknown>;
  for (const k of ['password', 'userPassword', 'passwd', 'token', 'accessToken', 'X-API-Key', 'api_key', 'apiKey', 'Authorization', 'cookie', 'privateKey', 'client_secret']) {
    assert.deepEqual(enc[k], { $t: 'redacted' }, k);
  }
  assert.deepEqual(enc.tokens, ['kept']);
  assert.equal(enc.tokenizer, 'kept');
  assert.equal(enc.author, 'kept');
  assert.deepEqual(enc.nested, { sessionId: { $t: 'redacted' } });
  const m = encodeSnapshot(new Map([['password', 'x']])) as { entries: unknown[][] };
  assert.deepEqual(m.entries[0], ['password', { $t: 'redacted' }]);
  const custom = encodeSnapshot({ ssn: '1', password: 'p', pin2: 'x' }, { redactKeys: ['ssn', /^pin\d$/] });
  assert.deepEqual(custom, { ssn: { $t: 'redacted' }, password: 'p', pin2: { $t: 'redacted' } });
  assert.ok(DEFAULT_REDACT_KEYS.includes('password'));
  // A redacted value decodes to a marker that encodes back to the same marker.
  assert.deepEqual(encodeSnapshot(decodeSnapshot(enc)), enc);
});

test('size caps produce explicit truncation markers', () => {
  const opts = { maxDepth: 3, maxStringLength: 4, maxEntries: 2, maxNodes: 1000 };
  assert.deepEqual(encodeSnapshot('abcdefgh', opts), { $t: 'truncated', reason: 'string', v: 'abcd', length: 8 });
  assert.deepEqual(encodeSnapshot([1, 2, 3, 4], opts), { $t: 'array', items: [1, 2], truncated: 2 });
  assert.deepEqual(encodeSnapshot({ a: 1, b: 2, c: 3 }, opts), { $t: 'object', props: { a: 1, b: 2 }, truncated: 1 });
  assert.deepEqual(encodeSnapshot(new Set([1, 2, 3]), opts), { $t: 'set', values: [1, 2], truncated: 1 });
  assert.deepEqual(encodeSnapshot({ a: { b: { c: { d: 1 } } } }, opts), { a: { b: { c: { $t: 'truncated', reason: 'depth' } } } });
  const nodes = encodeSnapshot([1, 2, 3, 4, 5], { maxNodes: 3 }) as unknown[];
  assert.deepEqual(nodes, [1, 2, { $t: 'truncated', reason: 'nodes' }, { $t: 'truncated', reason: 'nodes' }, { $t: 'truncated', reason: 'nodes' }]);
  // Truncation survives decode → encode with the same caps.
  const enc = encodeSnapshot({ list: [1, 2, 3], s: 'abcdefgh' }, opts);
  assert.deepEqual(createSnapshotCodec(opts).encode(decodeSnapshot(enc)), enc);
  // A huge sparse array costs only maxEntries.
  const started = performance.now();
  const big = encodeSnapshot(new Array(1e9), { maxEntries: 3 });
  assert.deepEqual(big, { $t: 'array', items: [{ $t: 'hole' }, { $t: 'hole' }, { $t: 'hole' }], truncated: 1e9 - 3 });
  assert.ok(performance.now() - started < 100);
});

test('encode never throws on hostile input: revoked proxies, throwing getters, throwing traps', () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const trap = new Proxy({}, { ownKeys() { throw new TypeError('no keys'); } });
  const getter = { get boom() { throw new Error('getter says no'); }, ok: 1 };
  const weirdThrow = { get x() { throw Object.assign(Object.create(null), { toString: null }); } };
  const enc = encodeSnapshot({ proxy, trap, getter, weirdThrow }) as Record<string, unknown>;
  assert.deepEqual(enc.proxy, { $t: 'unreadable', name: 'TypeError', message: enc.proxy && (enc.proxy as { message: string }).message });
  assert.equal((enc.trap as { $t: string }).$t, 'unreadable');
  assert.deepEqual(enc.getter, { boom: { $t: 'unreadable', name: 'Error', message: 'getter says no' }, ok: 1 });
  assert.equal(((enc.weirdThrow as Record<string, { $t: string }>).x).$t, 'unreadable');
  // Getters are read (documented): the value a getter returns is what gets recorded.
  assert.deepEqual(encodeSnapshot({ get v() { return 42; } }), { v: 42 });
});

test('decode never pollutes prototypes through "__proto__" keys', () => {
  const hostile = JSON.parse('{"__proto__":{"polluted":1},"a":{"$t":"object","class":"__proto__","props":{"__proto__":{"polluted":2}}},"m":{"$t":"map","entries":[["__proto__",1]]}}');
  const out = decodeSnapshot(hostile) as Record<string, unknown>;
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.ok(Object.hasOwn(out, '__proto__'));
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { polluted: 1 });
  assert.equal((out.a as Record<string, unknown>).polluted, undefined);
  assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
});

test('decode rejects malformed encodings with coded errors and bounds nesting', () => {
  const codeOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as { code?: string }).code;
    }
    return 'no error';
  };
  assert.equal(codeOf(() => decodeSnapshot({ $t: 'nope' })), 'SNAPSHOT_BAD_TAG');
  assert.equal(codeOf(() => decodeSnapshot({ $t: 'ref', id: 9 })), 'SNAPSHOT_BAD_REF');
  assert.equal(codeOf(() => decodeSnapshot({ $t: 'typed', type: 'Function', v: [] })), 'SNAPSHOT_BAD_NODE');
  assert.equal(codeOf(() => decodeSnapshot({ $t: 'ref', id: 1, $id: 1 })), 'SNAPSHOT_TOO_DEEP');
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(codeOf(() => decodeSnapshot(deep)), 'SNAPSHOT_TOO_DEEP');
  assert.equal(snapshotEqual(deep, deep), false, 'over-deep comparisons are refused, not a stack overflow');
  // Refs may point forward (hand-written encodings, integer-like keys reorder).
  const fwd = decodeSnapshot({ b: { $t: 'ref', id: 1 }, c: { $id: 1, x: 1 } }) as { b: object; c: object };
  assert.equal(fwd.b, fwd.c);
});

test('snapshotEqual: key order, NaN, -0, refs by shape', () => {
  assert.ok(snapshotEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }));
  assert.ok(!snapshotEqual([1, 2], [2, 1]));
  assert.ok(snapshotEqual(encodeSnapshot(NaN), encodeSnapshot(NaN)));
  assert.ok(!snapshotEqual(encodeSnapshot(-0), encodeSnapshot(0)));
  assert.ok(snapshotEqual(NaN, NaN));
  assert.ok(!snapshotEqual(-0, 0));
  // Same graph, different id numbering.
  const a = { x: { $id: 1, v: 1 }, y: { $id: 2, w: 2 }, rx: { $t: 'ref', id: 1 }, ry: { $t: 'ref', id: 2 } };
  const b = { x: { $id: 2, v: 1 }, y: { $id: 1, w: 2 }, rx: { $t: 'ref', id: 2 }, ry: { $t: 'ref', id: 1 } };
  assert.ok(snapshotEqual(a, b));
  // Shared vs two equal copies differ.
  const shared = { s: 1 };
  assert.ok(!snapshotEqual(encodeSnapshot([shared, shared]), encodeSnapshot([{ s: 1 }, { s: 1 }])));
  // Crossed refs differ.
  const c = { ...b, rx: { $t: 'ref', id: 1 }, ry: { $t: 'ref', id: 2 } };
  assert.ok(!snapshotEqual(a, c));
  // Cycles terminate.
  const cyc1: Record<string, unknown> = { n: 1 };
  cyc1.me = cyc1;
  const cyc2: Record<string, unknown> = { n: 1 };
  cyc2.me = cyc2;
  assert.ok(snapshotEqual(encodeSnapshot(cyc1), encodeSnapshot(cyc2)));
  cyc2.n = 2;
  assert.ok(!snapshotEqual(encodeSnapshot(cyc1), encodeSnapshot(cyc2)));
});

test('normaliseSnapshot applies redaction to a hand-written expectation', () => {
  const expected = { user: 'ann', password: 'hunter2' };
  const actual = encodeSnapshot({ user: 'ann', password: 'other' });
  assert.ok(!snapshotEqual(actual, expected));
  assert.ok(snapshotEqual(actual, normaliseSnapshot(expected)));
});

test('stringify ignores toJSON planted on prototypes and the codec source is a plain script', () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto.toJSON = () => 'forged';
  try {
    assert.equal(stringifySnapshot({ a: [1, { b: 'x' }] }), '{"a":[1,{"b":"x"}]}');
  } finally {
    delete proto.toJSON;
  }
  assert.match(SNAPSHOT_CODEC_SOURCE, /^\s*(\/\*[\s\S]*?\*\/\s*)?function createSnapshotCodec\(/);
  assert.doesNotMatch(SNAPSHOT_CODEC_SOURCE, /^\s*(import|export)\s/m);
});
