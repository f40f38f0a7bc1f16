/*
 * The snapshot codec, as a plain script: it defines exactly one function, `createSnapshotCodec`,
 * and nothing else (no import/export), because the same text is evaluated on the host
 * (core/snapshot.ts) and inside every isolated-vm sandbox context, where there is no module
 * loader. tsx rewrites functions it compiles, so `fn.toString()` can't be used to ship this into
 * a sandbox; the file text is the single source of truth instead.
 *
 * Encoding (core/snapshot.ts has the full table):
 *   plain JSON values encode as themselves; everything else is an object with a reserved "$t" key.
 *   Shared references and cycles: the first occurrence of an object that is seen again gets an
 *   "$id" (a JSON array is wrapped as {"$t":"array","$id":n,"items":[...]}) and later occurrences
 *   are {"$t":"ref","id":n}. Plain objects that have their own "$t" or "$id" key are escaped as
 *   {"$t":"object","props":{...}}.
 *
 * Everything here must keep working after code in the same realm (a sandboxed candidate) has
 * replaced globals or prototype methods, so the built-ins are captured once, at creation time,
 * and every output node is written with defineProperty (setters on Object.prototype or
 * Array.prototype can't intercept) and serialised by our own `stringify` (no toJSON hook).
 */
function createSnapshotCodec(options) {
  'use strict';

  // ---- captured built-ins ----
  const apply = Reflect.apply;
  const ObjectKeys = Object.keys;
  const getProto = Object.getPrototypeOf;
  const gOPD = Object.getOwnPropertyDescriptor;
  const defineProperty = Object.defineProperty;
  const objectCreate = Object.create;
  const objectIs = Object.is;
  const freeze = Object.freeze;
  const isArray = Array.isArray;
  const hasOwnProperty = Object.prototype.hasOwnProperty;
  const objectToString = Object.prototype.toString;
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const SafeMap = Map;
  const SafeSet = Set;
  const SafeWeakMap = WeakMap;
  const MapGet = Map.prototype.get;
  const MapSet = Map.prototype.set;
  const MapHas = Map.prototype.has;
  const MapEntries = Map.prototype.entries;
  const MapSizeGetter = gOPD(Map.prototype, 'size').get;
  const MapIteratorNext = getProto(new Map().entries()).next;
  const SetAdd = Set.prototype.add;
  const SetValues = Set.prototype.values;
  const SetSizeGetter = gOPD(Set.prototype, 'size').get;
  const SetIteratorNext = getProto(new Set().values()).next;
  const WeakMapGet = WeakMap.prototype.get;
  const WeakMapSet = WeakMap.prototype.set;
  const DateGetTime = Date.prototype.getTime;
  const DateToISOString = Date.prototype.toISOString;
  const SafeDate = Date;
  const RegExpSourceGetter = gOPD(RegExp.prototype, 'source').get;
  const RegExpFlagsGetter = gOPD(RegExp.prototype, 'flags').get;
  const RegExpTest = RegExp.prototype.test;
  const SafeRegExp = RegExp;
  const StringSlice = String.prototype.slice;
  const StringCharCodeAt = String.prototype.charCodeAt;
  const StringFromCharCode = String.fromCharCode;
  const ArrayJoin = Array.prototype.join;
  const ArrayBufferByteLengthGetter = gOPD(ArrayBuffer.prototype, 'byteLength').get;
  const TypedArrayProto = getProto(Uint8Array.prototype);
  const TypedArrayTagGetter = gOPD(TypedArrayProto, Symbol.toStringTag).get;
  const TypedArrayLengthGetter = gOPD(TypedArrayProto, 'length').get;
  const DataViewBufferGetter = gOPD(DataView.prototype, 'buffer').get;
  const DataViewOffsetGetter = gOPD(DataView.prototype, 'byteOffset').get;
  const DataViewLengthGetter = gOPD(DataView.prototype, 'byteLength').get;
  const SafeUint8Array = Uint8Array;
  const SafeArrayBuffer = ArrayBuffer;
  const SafeDataView = DataView;
  const SafeBigInt = BigInt;
  const SafeString = String;
  const SafeSymbol = Symbol;
  const SymbolFor = Symbol.for;
  const SymbolDescriptionGetter = gOPD(Symbol.prototype, 'description').get;
  const FunctionNameOf = (fn) => {
    const d = gOPD(fn, 'name');
    return d && typeof d.value === 'string' ? d.value : '';
  };
  const jsonStringifyString = JSON.stringify;
  const isError = typeof Error.isError === 'function' ? Error.isError : null;
  const numberIsFinite = Number.isFinite;
  const numberIsInteger = Number.isInteger;
  const mathMin = Math.min;
  const mathMax = Math.max;
  const ERROR_CTORS = {
    Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError,
  };
  const TYPED_CTORS = {
    Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array,
  };
  if (typeof Float16Array === 'function') TYPED_CTORS.Float16Array = Float16Array;

  // Brands shared across codec instances in one realm, so a value decoded by one instance
  // re-encodes identically through another (e.g. with different caps).
  const MARKER = SymbolFor('suture.snapshot.marker');
  const TRUNCATED = SymbolFor('suture.snapshot.truncated');

  class SnapshotError extends Error {
    constructor(code, message) {
      super(message);
      defineProperty(this, 'name', { value: 'SnapshotError', configurable: true, writable: true });
      defineProperty(this, 'code', { value: code, enumerable: true, configurable: true, writable: true });
    }
  }

  // ---- options ----
  const DEFAULT_REDACT_KEYS = [
    'password', 'passwd', 'pwd', 'passphrase', 'secret', 'secrets', 'token', 'api key', 'apikey',
    'access key', 'private key', 'privatekey', 'authorization', 'auth', 'cookie', 'cookies',
    'set cookie', 'session id', 'credential', 'credentials',
  ];
  const o = options && typeof options === 'object' ? options : {};
  const intOption = (v, d, min) => (typeof v === 'number' && v === v ? mathMax(min, v) : d);
  const maxDepth = intOption(o.maxDepth, 64, 1);
  const maxStringLength = intOption(o.maxStringLength, 100000, 0);
  const maxEntries = intOption(o.maxEntries, 10000, 0);
  const maxNodes = intOption(o.maxNodes, 200000, 1);
  // Decoding and comparing walk encodings that may come from anywhere; each encoded level adds
  // at most 3 JSON levels, so this bound never rejects what encode produced.
  const maxDecodeDepth = intOption(o.maxDecodeDepth, mathMax(1000, maxDepth * 3 + 10), 1);
  // Told each value redacted by key (the host's SDK redacts its copies elsewhere in a report).
  const onRedact = typeof o.onRedact === 'function' ? o.onRedact : null;
  function redacted(read) {
    if (onRedact === null) return;
    try { onRedact(read()); } catch { /* a throwing getter or hook: the value stays unseen */ }
  }

  /**
   * Split a key into lowercase words: camelCase, PascalCase, ACRONYMCase, snake/kebab/space.
   * A hand-written scan, because RegExp methods look up `exec` dynamically and sandboxed code
   * may have replaced it.
   */
  function keyWords(key) {
    const words = [];
    let cur = '';
    const flush = () => { if (cur !== '') { words[words.length] = cur; cur = ''; } };
    const kind = (c) => (c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : c >= 48 && c <= 57 ? 3 : 0);
    for (let i = 0; i < key.length; i++) {
      const c = apply(StringCharCodeAt, key, [i]);
      const k = kind(c);
      if (k === 0) { flush(); continue; }
      if (k === 1 && cur !== '') {
        const prev = kind(apply(StringCharCodeAt, key, [i - 1]));
        const next = i + 1 < key.length ? kind(apply(StringCharCodeAt, key, [i + 1])) : 0;
        if (prev === 2 || prev === 3 || (prev === 1 && next === 2)) flush();
      }
      cur += StringFromCharCode(k === 1 ? c + 32 : c);
    }
    flush();
    return words;
  }
  function isIntegerString(s, maxLength) {
    if (typeof s !== 'string' || s.length === 0 || s.length > maxLength) return false;
    for (let i = 0; i < s.length; i++) {
      const c = apply(StringCharCodeAt, s, [i]);
      if (!(c >= 48 && c <= 57) && !(i === 0 && c === 45 && s.length > 1)) return false;
    }
    return true;
  }
  const redactWordPatterns = [];
  const redactRegExps = [];
  const redactSource = isArray(o.redactKeys) ? o.redactKeys : DEFAULT_REDACT_KEYS;
  for (let i = 0; i < redactSource.length; i++) {
    const p = redactSource[i];
    if (typeof p === 'string') {
      const w = keyWords(p);
      if (w.length) redactWordPatterns[redactWordPatterns.length] = w;
    } else if (p && typeof p === 'object') {
      try {
        apply(RegExpSourceGetter, p, []);
        redactRegExps[redactRegExps.length] = new SafeRegExp(apply(RegExpSourceGetter, p, []), apply(RegExpFlagsGetter, p, []));
      } catch { /* not a RegExp: ignore */ }
    }
  }
  const redactCache = new SafeMap();
  function isSecretKey(key) {
    if (typeof key !== 'string') return false;
    const cached = apply(MapGet, redactCache, [key]);
    if (cached !== undefined) return cached;
    let hit = false;
    for (let i = 0; i < redactRegExps.length && !hit; i++) {
      const re = redactRegExps[i];
      re.lastIndex = 0;
      hit = apply(RegExpTest, re, [key]);
    }
    if (!hit && redactWordPatterns.length) {
      const words = keyWords(key);
      for (let p = 0; p < redactWordPatterns.length && !hit; p++) {
        const pat = redactWordPatterns[p];
        for (let i = 0; i + pat.length <= words.length && !hit; i++) {
          let all = true;
          for (let j = 0; j < pat.length; j++) if (words[i + j] !== pat[j]) { all = false; break; }
          hit = all;
        }
      }
    }
    if (redactCache.size < 10000) apply(MapSet, redactCache, [key, hit]);
    return hit;
  }

  // ---- small helpers ----
  function def(obj, key, value) {
    defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  }
  function push(arr, value) {
    def(arr, arr.length, value);
  }
  function hasOwn(obj, key) {
    return apply(hasOwnProperty, obj, [key]);
  }
  function tag(t) {
    const n = {};
    def(n, '$t', t);
    return n;
  }
  function isTagged(n) {
    return n !== null && typeof n === 'object' && !isArray(n) && hasOwn(n, '$t') && typeof n.$t === 'string';
  }
  function brandCheck(getter, v) {
    try { apply(getter, v, []); return true; } catch { return false; }
  }
  // Prototypes of the built-ins recognised by a (throwing) brand check. A failed brand check
  // costs microseconds (an exception per check, several checks per object), so objects whose
  // prototype chain reaches this realm's Object.prototype without passing any of these skip the
  // checks. Trade-off: a Map, Date, etc. whose prototype was swapped for a plain one with
  // Object.setPrototypeOf encodes as the plain object it now pretends to be.
  const SLOTTED_PROTOS = [
    SafeDate.prototype, SafeRegExp.prototype, SafeMap.prototype, SafeSet.prototype, TypedArrayProto,
    SafeArrayBuffer.prototype, SafeDataView.prototype,
  ];
  function mayHaveBuiltinSlots(v) {
    let p = getProto(v);
    for (let hops = 0; hops < 32; hops++) {
      if (p === ObjectProto) return false;
      if (p === null) return true; // a null-prototype or foreign-realm chain: check properly
      for (let i = 0; i < SLOTTED_PROTOS.length; i++) if (p === SLOTTED_PROTOS[i]) return true;
      p = getProto(p);
    }
    return true;
  }
  function ownData(obj, key) {
    const d = gOPD(obj, key);
    return d && hasOwn(d, 'value') ? d.value : undefined;
  }
  /** Constructor name of a prototype, read without invoking accessors. */
  function protoClassName(proto) {
    try {
      const ctor = ownData(proto, 'constructor');
      if (typeof ctor === 'function') return FunctionNameOf(ctor);
    } catch { /* hostile proxy */ }
    return '';
  }
  function isPlainProto(proto) {
    if (proto === ObjectProto) return true;
    // Objects from another realm (vm contexts) have their own Object.prototype.
    try { return getProto(proto) === null && protoClassName(proto) === 'Object'; } catch { return false; }
  }
  function isArrayProto(proto) {
    if (proto === ArrayProto) return true;
    try { return isArray(proto) && protoClassName(proto) === 'Array'; } catch { return false; }
  }
  function safeString(v) {
    try {
      if (typeof v === 'string') return v;
      if (typeof v === 'symbol') return 'Symbol()';
      return SafeString(v);
    } catch { return '<unprintable>'; }
  }
  function unreadable(err) {
    const n = tag('unreadable');
    let name = 'Error';
    let message = '';
    try {
      if (err !== null && (typeof err === 'object' || typeof err === 'function')) {
        const nm = err.name;
        const ms = err.message;
        name = typeof nm === 'string' ? nm : 'Error';
        message = typeof ms === 'string' ? ms : safeString(ms);
      } else {
        name = typeof err;
        message = safeString(err);
      }
    } catch { /* the error itself is hostile */ }
    def(n, 'name', name);
    def(n, 'message', message);
    return n;
  }
  function encodeNumber(v) {
    if (v !== v) { const n = tag('number'); def(n, 'v', 'NaN'); return n; }
    if (v === Infinity || v === -Infinity) { const n = tag('number'); def(n, 'v', v > 0 ? 'Infinity' : '-Infinity'); return n; }
    if (v === 0 && 1 / v < 0) { const n = tag('number'); def(n, 'v', '-0'); return n; }
    return v;
  }

  // ---- encode ----
  function encode(value) {
    const seen = new SafeMap();
    let nodes = 0;
    let nextId = 1;
    const root = [];

    function put(holder, key, v, depth) {
      const node = enc(v, depth);
      def(holder, key, node);
      if (v !== null && (typeof v === 'object' || typeof v === 'function')) {
        const rec = apply(MapGet, seen, [v]);
        if (rec && (rec.node === node || rec.wrapper === node) && rec.holder === null) {
          rec.holder = holder;
          rec.key = key;
        }
      }
    }

    function enc(v, depth) {
      nodes++;
      if (nodes > maxNodes) {
        const n = tag('truncated');
        def(n, 'reason', 'nodes');
        return n;
      }
      switch (typeof v) {
        case 'undefined': return tag('undefined');
        case 'boolean': return v;
        case 'number': return encodeNumber(v);
        case 'string': {
          if (v.length <= maxStringLength) return v;
          const n = tag('truncated');
          def(n, 'reason', 'string');
          def(n, 'v', apply(StringSlice, v, [0, maxStringLength]));
          def(n, 'length', v.length);
          return n;
        }
        case 'bigint': { const n = tag('bigint'); def(n, 'v', safeString(v)); return n; }
        case 'symbol': {
          const n = tag('symbol');
          let d;
          try { d = apply(SymbolDescriptionGetter, v, []); } catch { d = undefined; }
          if (typeof d === 'string') def(n, 'description', d);
          return n;
        }
        default:
          if (v === null) return null;
          try {
            return encObject(v, depth);
          } catch (err) {
            return unreadable(err);
          }
      }
    }

    function encObject(v, depth) {
      const rec = apply(MapGet, seen, [v]);
      if (rec) {
        if (!rec.id) {
          rec.id = nextId++;
          if (rec.wrapper) {
            def(rec.wrapper, '$id', rec.id);
          } else if (isArray(rec.node)) {
            const w = tag('array');
            def(w, '$id', rec.id);
            def(w, 'items', rec.node);
            rec.wrapper = w;
            if (rec.holder !== null) def(rec.holder, rec.key, w);
          } else {
            def(rec.node, '$id', rec.id);
          }
        }
        const r = tag('ref');
        def(r, 'id', rec.id);
        return r;
      }
      // A decoded marker re-encodes as the marker it came from (keeps encode∘decode idempotent).
      const marker = typeof v === 'object' ? ownData(v, MARKER) : undefined;
      if (marker !== undefined && marker !== null && typeof marker === 'object') return copyJson(marker, 0);
      if (depth >= maxDepth) {
        const n = tag('truncated');
        def(n, 'reason', 'depth');
        return n;
      }
      const record = { node: null, wrapper: null, id: 0, holder: null, key: null };
      const remember = (node) => { record.node = node; apply(MapSet, seen, [v, record]); return node; };

      if (typeof v === 'function') {
        const n = tag('function');
        let name = '';
        try { name = FunctionNameOf(v); } catch { name = ''; }
        def(n, 'name', name);
        remember(n);
        return n;
      }

      // Arrays (isArray throws on a revoked proxy: the caller turns that into "unreadable").
      if (isArray(v)) {
        const proto = getProto(v);
        const len = v.length >>> 0;
        const count = mathMin(len, maxEntries);
        const items = [];
        const truncated = len - count + (truncatedOf(v) || 0);
        let node = items;
        if (!isArrayProto(proto) || truncated > 0) {
          node = tag('array');
          if (!isArrayProto(proto)) def(node, 'class', proto === null ? null : protoClassName(proto));
          def(node, 'items', items);
          if (truncated > 0) def(node, 'truncated', truncated);
        }
        remember(items);
        if (node !== items) record.wrapper = node;
        for (let i = 0; i < count; i++) {
          if (hasOwn(v, i)) putRead(items, i, v, i, depth + 1);
          else push(items, tag('hole'));
        }
        return record.wrapper || items;
      }

      const builtin = encBuiltin(v, depth, remember);
      if (builtin !== undefined) return builtin;

      // Plain objects and class instances: own enumerable string keys, values read through
      // getters (a throwing getter yields an "unreadable" marker for that key).
      const proto = getProto(v);
      const keys = ObjectKeys(v);
      const count = mathMin(keys.length, maxEntries);
      const truncated = keys.length - count + (truncatedOf(v) || 0);
      const plain = proto !== null && isPlainProto(proto);
      let escape = false;
      for (let i = 0; i < count; i++) if (keys[i] === '$t' || keys[i] === '$id') { escape = true; break; }
      const props = {};
      let node = props;
      if (!plain || escape || truncated > 0) {
        node = tag('object');
        if (!plain) def(node, 'class', proto === null ? null : protoClassName(proto));
        def(node, 'props', props);
        if (truncated > 0) def(node, 'truncated', truncated);
      }
      remember(node);
      for (let i = 0; i < count; i++) putRead(props, keys[i], v, keys[i], depth + 1);
      return node;
    }

    function truncatedOf(v) {
      try {
        const t = ownData(v, TRUNCATED);
        return typeof t === 'number' ? t : 0;
      } catch { return 0; }
    }

    /** Read v[key] (may run a getter) and encode it into holder[outKey]. */
    function putRead(holder, outKey, v, key, depth) {
      if (typeof key === 'string' && isSecretKey(key)) {
        nodes++;
        def(holder, outKey, tag('redacted'));
        redacted(() => v[key]);
        return;
      }
      let value;
      try {
        value = v[key];
      } catch (err) {
        nodes++;
        def(holder, outKey, unreadable(err));
        return;
      }
      put(holder, outKey, value, depth);
    }

    function encBuiltin(v, depth, remember) {
      if (mayHaveBuiltinSlots(v)) {
        const n = encSlotted(v, depth, remember);
        if (n !== undefined) return n;
      }
      return encError(v, depth, remember);
    }

    function encSlotted(v, depth, remember) {
      // Brand checks through captured getters: immune to Symbol.toStringTag spoofing and realms.
      if (brandCheck(DateGetTime, v)) {
        const n = remember(tag('date'));
        const t = apply(DateGetTime, v, []);
        def(n, 'v', t === t ? apply(DateToISOString, v, []) : 'Invalid');
        return n;
      }
      if (brandCheck(RegExpSourceGetter, v) && v !== SafeRegExp.prototype) {
        const n = remember(tag('regexp'));
        def(n, 'source', apply(RegExpSourceGetter, v, []));
        def(n, 'flags', apply(RegExpFlagsGetter, v, []));
        return n;
      }
      if (brandCheck(MapSizeGetter, v)) {
        const n = remember(tag('map'));
        const proto = getProto(v);
        if (protoClassName(proto) !== 'Map') def(n, 'class', proto === null ? null : protoClassName(proto));
        const entries = [];
        def(n, 'entries', entries);
        const size = apply(MapSizeGetter, v, []);
        const it = apply(MapEntries, v, []);
        const count = mathMin(size, maxEntries);
        for (let i = 0; i < count; i++) {
          const step = apply(MapIteratorNext, it, []);
          if (step.done) break;
          const pair = [];
          put(pair, 0, step.value[0], depth + 1);
          if (typeof step.value[0] === 'string' && isSecretKey(step.value[0])) { nodes++; def(pair, 1, tag('redacted')); redacted(() => step.value[1]); }
          else put(pair, 1, step.value[1], depth + 1);
          push(entries, pair);
        }
        const truncated = size - count + truncatedOf(v);
        if (truncated > 0) def(n, 'truncated', truncated);
        return n;
      }
      if (brandCheck(SetSizeGetter, v)) {
        const n = remember(tag('set'));
        const proto = getProto(v);
        if (protoClassName(proto) !== 'Set') def(n, 'class', proto === null ? null : protoClassName(proto));
        const values = [];
        def(n, 'values', values);
        const size = apply(SetSizeGetter, v, []);
        const it = apply(SetValues, v, []);
        const count = mathMin(size, maxEntries);
        for (let i = 0; i < count; i++) {
          const step = apply(SetIteratorNext, it, []);
          if (step.done) break;
          put(values, values.length, step.value, depth + 1);
        }
        const truncated = size - count + truncatedOf(v);
        if (truncated > 0) def(n, 'truncated', truncated);
        return n;
      }
      let typedName;
      try { typedName = apply(TypedArrayTagGetter, v, []); } catch { typedName = undefined; }
      if (typeof typedName === 'string') {
        const n = remember(tag('typed'));
        def(n, 'type', typedName);
        const len = apply(TypedArrayLengthGetter, v, []);
        const count = mathMin(len, maxEntries);
        const out = [];
        const big = typedName === 'BigInt64Array' || typedName === 'BigUint64Array';
        for (let i = 0; i < count; i++) {
          nodes++;
          const x = v[i];
          def(out, i, big ? safeString(x) : encodeNumber(x));
        }
        def(n, 'v', out);
        if (len > count) def(n, 'truncated', len - count);
        return n;
      }
      let bufferBytes = null;
      let bufferType = '';
      if (brandCheck(ArrayBufferByteLengthGetter, v)) {
        bufferType = 'ArrayBuffer';
        bufferBytes = new SafeUint8Array(v);
      } else if (brandCheck(DataViewBufferGetter, v)) {
        bufferType = 'DataView';
        bufferBytes = new SafeUint8Array(apply(DataViewBufferGetter, v, []), apply(DataViewOffsetGetter, v, []), apply(DataViewLengthGetter, v, []));
      }
      if (bufferBytes !== null) {
        const n = remember(tag('typed'));
        def(n, 'type', bufferType);
        const len = apply(TypedArrayLengthGetter, bufferBytes, []);
        const count = mathMin(len, maxEntries);
        const out = [];
        for (let i = 0; i < count; i++) { nodes++; def(out, i, bufferBytes[i]); }
        def(n, 'v', out);
        if (len > count) def(n, 'truncated', len - count);
        return n;
      }
      return undefined;
    }

    function encError(v, depth, remember) {
      if (isError ? isError(v) : apply(objectToString, v, []) === '[object Error]') {
        const n = remember(tag('error'));
        let name = 'Error';
        let message = '';
        let stack;
        try { const x = v.name; name = typeof x === 'string' ? x : safeString(x); } catch { /* keep default */ }
        try { const x = v.message; message = typeof x === 'string' ? x : safeString(x); } catch { /* keep default */ }
        try { const x = v.stack; if (typeof x === 'string') stack = x; } catch { /* no stack */ }
        def(n, 'name', name);
        def(n, 'message', message);
        if (stack !== undefined) {
          def(n, 'stack', stack.length <= maxStringLength ? stack : apply(StringSlice, stack, [0, maxStringLength]));
        }
        const proto = getProto(v);
        const cls = proto === null ? null : protoClassName(proto);
        if (cls !== name) def(n, 'class', cls);
        if (hasOwn(v, 'cause')) putRead(n, 'cause', v, 'cause', depth + 1);
        const keys = ObjectKeys(v);
        let props = null;
        for (let i = 0; i < keys.length && i < maxEntries; i++) {
          const k = keys[i];
          if (k === 'stack' || k === 'message' || k === 'cause') continue;
          if (props === null) { props = {}; def(n, 'props', props); }
          putRead(props, k, v, k, depth + 1);
        }
        return n;
      }
      return undefined;
    }

    put(root, 0, value, 0);
    return root[0];
  }

  /** Deep copy of a JSON-shaped value (marker payloads), bounded. */
  function copyJson(v, depth) {
    if (v === null || typeof v !== 'object') return v;
    if (depth > maxDecodeDepth) throw new SnapshotError('SNAPSHOT_TOO_DEEP', 'snapshot nesting exceeds ' + maxDecodeDepth);
    if (isArray(v)) {
      const out = [];
      for (let i = 0; i < v.length; i++) def(out, i, copyJson(v[i], depth + 1));
      return out;
    }
    const out = {};
    const keys = ObjectKeys(v);
    for (let i = 0; i < keys.length; i++) def(out, keys[i], copyJson(v[keys[i]], depth + 1));
    return out;
  }

  // ---- decode ----
  const syntheticClasses = new SafeMap();
  function syntheticClass(name, base) {
    const key = (base ? 'E:' : 'O:') + name;
    let C = apply(MapGet, syntheticClasses, [key]);
    if (!C) {
      // Computed keys never set a prototype, so a hostile name such as "__proto__" is harmless.
      C = base ? ({ [name]: class extends base {} })[name] : ({ [name]: class {} })[name];
      apply(MapSet, syntheticClasses, [key, C]);
    }
    return C;
  }
  function standInFunction(name) {
    const f = function () {
      throw new SnapshotError('SNAPSHOT_STAND_IN', 'function "' + name + '" was recorded as an opaque snapshot marker and cannot be called');
    };
    defineProperty(f, 'name', { value: name, configurable: true });
    return f;
  }
  function makeMarker(node) {
    const m = objectCreate(null);
    defineProperty(m, MARKER, { value: freezeDeep(copyJson(node, 0)) });
    def(m, '$t', node.$t);
    return freeze(m);
  }
  function freezeDeep(v) {
    if (v !== null && typeof v === 'object') {
      const keys = ObjectKeys(v);
      for (let i = 0; i < keys.length; i++) freezeDeep(v[keys[i]]);
      freeze(v);
    }
    return v;
  }
  function bad(code, message) {
    return new SnapshotError(code, message);
  }
  function decodeNumber(s) {
    switch (s) {
      case 'NaN': return NaN;
      case '-0': return -0;
      case 'Infinity': return Infinity;
      case '-Infinity': return -Infinity;
      default: throw bad('SNAPSHOT_BAD_NODE', 'bad number marker: ' + safeString(s));
    }
  }
  /** Map id -> node for every node carrying "$id" (so refs may point forward). */
  function indexIds(root, strict) {
    const index = new SafeMap();
    const stack = [root, 0];
    while (stack.length) {
      const depth = stack.pop();
      const n = stack.pop();
      if (n === null || typeof n !== 'object') continue;
      if (depth > maxDecodeDepth) {
        if (strict) throw bad('SNAPSHOT_TOO_DEEP', 'snapshot nesting exceeds ' + maxDecodeDepth);
        return null;
      }
      if (isArray(n)) {
        for (let i = n.length - 1; i >= 0; i--) { stack[stack.length] = n[i]; stack[stack.length] = depth + 1; }
        continue;
      }
      if (hasOwn(n, '$id')) {
        const id = n.$id;
        if (apply(MapHas, index, [id])) {
          if (strict) throw bad('SNAPSHOT_BAD_REF', 'duplicate $id ' + safeString(id));
          return null;
        }
        apply(MapSet, index, [id, n]);
      }
      const keys = ObjectKeys(n);
      const propsHolder = isTagged(n) && (n.$t === 'object' || n.$t === 'error');
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        if (k === '$id' || k === '$t') continue;
        const child = n[k];
        if (propsHolder && k === 'props' && child !== null && typeof child === 'object' && !isArray(child)) {
          // "props" is a key map, not a node: its own "$id" key (if any) is data.
          const pk = ObjectKeys(child);
          for (let j = pk.length - 1; j >= 0; j--) { stack[stack.length] = child[pk[j]]; stack[stack.length] = depth + 2; }
        } else {
          stack[stack.length] = child;
          stack[stack.length] = depth + 1;
        }
      }
    }
    return index;
  }

  function decode(encoded) {
    const index = indexIds(encoded, true);
    const made = new SafeMap();

    function register(node, value) {
      if (hasOwn(node, '$id')) apply(MapSet, made, [node.$id, value]);
      return value;
    }
    function withTruncation(node, value) {
      if (hasOwn(node, 'truncated') && typeof node.truncated === 'number') {
        defineProperty(value, TRUNCATED, { value: node.truncated, configurable: true });
      }
      return value;
    }
    function arr(node, key) {
      const a = node[key];
      if (!isArray(a)) throw bad('SNAPSHOT_BAD_NODE', '"' + node.$t + '" node needs an array "' + key + '"');
      return a;
    }
    function str(node, key, optional) {
      const s = node[key];
      if (typeof s === 'string') return s;
      if (optional && s === undefined) return undefined;
      throw bad('SNAPSHOT_BAD_NODE', '"' + node.$t + '" node needs a string "' + key + '"');
    }
    function decodeItems(items, out, depth) {
      for (let i = 0; i < items.length; i++) {
        const it = items[i];
        if (isTagged(it) && it.$t === 'hole') { out.length = i + 1; continue; }
        def(out, i, dec(it, depth + 1));
      }
      return out;
    }
    function decodeProps(props, out, depth) {
      if (props === null || typeof props !== 'object' || isArray(props)) throw bad('SNAPSHOT_BAD_NODE', 'props must be an object');
      const keys = ObjectKeys(props);
      for (let i = 0; i < keys.length; i++) def(out, keys[i], dec(props[keys[i]], depth + 1));
      return out;
    }

    function dec(node, depth) {
      if (depth > maxDecodeDepth) throw bad('SNAPSHOT_TOO_DEEP', 'snapshot nesting exceeds ' + maxDecodeDepth);
      if (node === null || typeof node !== 'object') {
        if (typeof node === 'string' || typeof node === 'boolean' || typeof node === 'number' || node === null) return node;
        throw bad('SNAPSHOT_BAD_NODE', 'not a JSON value: ' + typeof node);
      }
      if (isArray(node)) return decodeItems(node, [], depth);
      if (hasOwn(node, '$id') && apply(MapHas, made, [node.$id])) return apply(MapGet, made, [node.$id]);
      if (!hasOwn(node, '$t')) {
        // Plain object; defineProperty makes "__proto__" an own key instead of a prototype switch.
        const out = register(node, {});
        const keys = ObjectKeys(node);
        for (let i = 0; i < keys.length; i++) {
          if (keys[i] === '$id') continue;
          def(out, keys[i], dec(node[keys[i]], depth + 1));
        }
        return out;
      }
      const t = node.$t;
      switch (t) {
        case 'undefined': return undefined;
        case 'number': return decodeNumber(node.v);
        case 'bigint': {
          const s = str(node, 'v');
          if (!isIntegerString(s, 100000)) throw bad('SNAPSHOT_BAD_NODE', 'bad bigint');
          return SafeBigInt(s);
        }
        case 'symbol': return SafeSymbol(str(node, 'description', true));
        case 'ref': {
          const id = node.id;
          if (apply(MapHas, made, [id])) return apply(MapGet, made, [id]);
          const target = apply(MapGet, index, [id]);
          if (target === undefined) throw bad('SNAPSHOT_BAD_REF', 'ref to unknown id ' + safeString(id));
          return dec(target, depth + 1);
        }
        case 'hole': throw bad('SNAPSHOT_BAD_NODE', 'hole outside an array');
        case 'date': {
          const s = str(node, 'v');
          return register(node, new SafeDate(s === 'Invalid' ? NaN : s));
        }
        case 'regexp': return register(node, new SafeRegExp(str(node, 'source'), str(node, 'flags')));
        case 'function': return register(node, standInFunction(str(node, 'name', true) || ''));
        case 'array': {
          const cls = node.class;
          const out = typeof cls === 'string' && cls !== 'Array' ? new (syntheticArrayClass(cls))() : [];
          register(node, out);
          decodeItems(arr(node, 'items'), out, depth);
          return withTruncation(node, out);
        }
        case 'object': {
          const cls = node.class;
          let out;
          if (cls === null) out = objectCreate(null);
          else if (cls === undefined || cls === 'Object') out = {};
          else if (typeof cls === 'string') out = objectCreate(syntheticClass(cls, null).prototype);
          else throw bad('SNAPSHOT_BAD_NODE', 'class must be a string or null');
          register(node, out);
          decodeProps(node.props, out, depth);
          return withTruncation(node, out);
        }
        case 'map': {
          const out = new SafeMap();
          register(node, out);
          const entries = arr(node, 'entries');
          for (let i = 0; i < entries.length; i++) {
            const e = entries[i];
            if (!isArray(e) || e.length !== 2) throw bad('SNAPSHOT_BAD_NODE', 'map entry must be [key, value]');
            apply(MapSet, out, [dec(e[0], depth + 2), dec(e[1], depth + 2)]);
          }
          return withTruncation(node, out);
        }
        case 'set': {
          const out = new SafeSet();
          register(node, out);
          const values = arr(node, 'values');
          for (let i = 0; i < values.length; i++) apply(SetAdd, out, [dec(values[i], depth + 1)]);
          return withTruncation(node, out);
        }
        case 'typed': {
          const type = str(node, 'type');
          const v = arr(node, 'v');
          if (type === 'ArrayBuffer' || type === 'DataView') {
            const buf = new SafeArrayBuffer(v.length);
            const bytes = new SafeUint8Array(buf);
            for (let i = 0; i < v.length; i++) bytes[i] = typeof v[i] === 'number' ? v[i] : 0;
            return register(node, type === 'ArrayBuffer' ? buf : new SafeDataView(buf));
          }
          if (!hasOwn(TYPED_CTORS, type)) throw bad('SNAPSHOT_BAD_NODE', 'unknown typed array type ' + safeString(type));
          const C = TYPED_CTORS[type];
          const out = new C(v.length);
          const big = type === 'BigInt64Array' || type === 'BigUint64Array';
          for (let i = 0; i < v.length; i++) {
            const x = v[i];
            if (big) out[i] = SafeBigInt(isIntegerString(x, 40) ? x : '0');
            else out[i] = typeof x === 'number' ? x : isTagged(x) && x.$t === 'number' ? decodeNumber(x.v) : 0;
          }
          return register(node, out);
        }
        case 'error': {
          const name = typeof node.name === 'string' ? node.name : 'Error';
          const message = typeof node.message === 'string' ? node.message : '';
          const cls = typeof node.class === 'string' ? node.class : name;
          const Base = hasOwn(ERROR_CTORS, cls) ? ERROR_CTORS[cls] : hasOwn(ERROR_CTORS, name) ? ERROR_CTORS[name] : Error;
          const C = hasOwn(ERROR_CTORS, cls) ? Base : syntheticClass(cls, Base);
          const out = new C(message);
          register(node, out);
          if (out.name !== name) defineProperty(out, 'name', { value: name, writable: true, configurable: true });
          if (typeof node.stack === 'string') defineProperty(out, 'stack', { value: node.stack, writable: true, configurable: true });
          else defineProperty(out, 'stack', { value: name + (message ? ': ' + message : ''), writable: true, configurable: true });
          if (hasOwn(node, 'cause')) defineProperty(out, 'cause', { value: dec(node.cause, depth + 1), writable: true, configurable: true });
          if (hasOwn(node, 'props')) decodeProps(node.props, out, depth);
          return out;
        }
        case 'redacted':
        case 'truncated':
        case 'unreadable':
          return makeMarker(node);
        default:
          throw bad('SNAPSHOT_BAD_TAG', 'unknown snapshot tag ' + jsonStringifyString(safeString(t)));
      }
    }
    return dec(encoded, 0);
  }
  const syntheticArrays = new SafeMap();
  function syntheticArrayClass(name) {
    let C = apply(MapGet, syntheticArrays, [name]);
    if (!C) {
      C = ({ [name]: class extends Array {} })[name];
      apply(MapSet, syntheticArrays, [name, C]);
    }
    return C;
  }

  // ---- equality ----
  /**
   * Structural equality of two encodings: object key order ignored, arrays ordered, numbers by
   * Object.is, "$id"/"ref" compared as graph shape (a consistent bijection of ids), and an
   * error's "stack" ignored (it names the machine and process, not the behaviour).
   */
  function equal(a, b) {
    const ia = indexIds(a, false);
    const ib = indexIds(b, false);
    if (ia === null || ib === null) return false;
    const ab = new SafeMap();
    const ba = new SafeMap();
    function deref(n, index) {
      for (let hops = 0; isTagged(n) && n.$t === 'ref'; hops++) {
        if (hops > 1000 || !apply(MapHas, index, [n.id])) return undefined;
        n = apply(MapGet, index, [n.id]);
      }
      return n;
    }
    function eq(x, y, depth) {
      if (depth > maxDecodeDepth) return false;
      x = deref(x, ia);
      y = deref(y, ib);
      if (x === undefined || y === undefined) return false;
      if (x === null || typeof x !== 'object' || y === null || typeof y !== 'object') return objectIs(x, y);
      const xa = isArray(x);
      if (xa !== isArray(y)) return false;
      if (xa) {
        if (x.length !== y.length) return false;
        for (let i = 0; i < x.length; i++) if (!eq(x[i], y[i], depth + 1)) return false;
        return true;
      }
      const xid = hasOwn(x, '$id');
      const yid = hasOwn(y, '$id');
      if (xid !== yid) return false;
      if (xid) {
        if (apply(MapHas, ab, [x.$id])) return apply(MapGet, ab, [x.$id]) === y.$id;
        if (apply(MapHas, ba, [y.$id])) return false;
        apply(MapSet, ab, [x.$id, y.$id]);
        apply(MapSet, ba, [y.$id, x.$id]);
      }
      const tagged = isTagged(x);
      const isErr = tagged && x.$t === 'error';
      const propsHolder = tagged && (x.$t === 'object' || isErr);
      const kx = ObjectKeys(x);
      const ky = ObjectKeys(y);
      let n = 0;
      for (let i = 0; i < kx.length; i++) {
        const k = kx[i];
        if (k === '$id' || (isErr && k === 'stack')) continue;
        n++;
        if (!hasOwn(y, k)) return false;
        if (propsHolder && k === 'props') {
          if (!eqProps(x[k], y[k], depth + 1)) return false;
        } else if (!eq(x[k], y[k], depth + 1)) return false;
      }
      let m = 0;
      for (let i = 0; i < ky.length; i++) {
        const k = ky[i];
        if (k === '$id' || (isErr && k === 'stack')) continue;
        m++;
      }
      return n === m;
    }
    /** A props key map: every key (including a literal "$id") is data. */
    function eqProps(p, q, depth) {
      if (p === null || typeof p !== 'object' || isArray(p) || q === null || typeof q !== 'object' || isArray(q)) return eq(p, q, depth);
      const kp = ObjectKeys(p);
      if (kp.length !== ObjectKeys(q).length) return false;
      for (let i = 0; i < kp.length; i++) if (!hasOwn(q, kp[i]) || !eq(p[kp[i]], q[kp[i]], depth + 1)) return false;
      return true;
    }
    return eq(a, b, 0);
  }

  // ---- stringify ----
  /** JSON text of an encoding; unlike JSON.stringify it ignores toJSON hooks planted on prototypes. */
  function stringify(node) {
    const parts = [];
    function w(n, depth) {
      if (depth > maxDecodeDepth) throw bad('SNAPSHOT_TOO_DEEP', 'snapshot nesting exceeds ' + maxDecodeDepth);
      if (n === null) { parts[parts.length] = 'null'; return; }
      switch (typeof n) {
        case 'boolean': parts[parts.length] = n ? 'true' : 'false'; return;
        case 'number': parts[parts.length] = numberIsFinite(n) ? (n === 0 ? '0' : SafeString(n)) : 'null'; return;
        case 'string': parts[parts.length] = jsonStringifyString(n); return;
        case 'object':
          if (isArray(n)) {
            parts[parts.length] = '[';
            for (let i = 0; i < n.length; i++) {
              if (i) parts[parts.length] = ',';
              w(n[i], depth + 1);
            }
            parts[parts.length] = ']';
            return;
          } else {
            parts[parts.length] = '{';
            const keys = ObjectKeys(n);
            let first = true;
            for (let i = 0; i < keys.length; i++) {
              const v = n[keys[i]];
              if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
              if (!first) parts[parts.length] = ',';
              first = false;
              parts[parts.length] = jsonStringifyString(keys[i]);
              parts[parts.length] = ':';
              w(v, depth + 1);
            }
            parts[parts.length] = '}';
            return;
          }
        default:
          parts[parts.length] = 'null';
      }
    }
    w(node, 0);
    return apply(ArrayJoin, parts, ['']);
  }

  return freeze({
    encode,
    decode,
    equal,
    stringify,
    SnapshotError,
    isSecretKey,
    DEFAULT_REDACT_KEYS: freeze(DEFAULT_REDACT_KEYS.slice()),
    limits: freeze({ maxDepth, maxStringLength, maxEntries, maxNodes, maxDecodeDepth }),
  });
}
