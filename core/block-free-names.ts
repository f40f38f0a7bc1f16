/**
 * The names a block declares and the outside names it reads, found by parsing with scopes.
 *
 * Three users:
 * - the trial sandbox (engine/sandbox/trial-runner.ts): a candidate runs in an SES compartment,
 *   where its top-level declarations stay local to its evaluation (the harness hands them to
 *   `script` cases), and where a name nobody declared reads as `undefined` instead of throwing
 *   `ReferenceError: x is not defined` as in Node; the harness defines each free name that is not
 *   a global of the compartment as one that throws, so a block fails in a trial as it fails in Node;
 * - the daemon, which refuses to search a block that reads names suture cannot see
 *   (`unknownFreeNames`): a trial would run it without them, and the search would "repair" the
 *   missing name away;
 * - the SDK may warn with the same answer before it reports.
 *
 * A name is free where it is read (or written) and no enclosing scope of the block declares it:
 * not a parameter, `var`/`let`/`const`, function, class, catch parameter or named function
 * expression of the block. Property names (`a.b`, `{ b: 1 }`, methods, class fields), labels and
 * `new.target`/`import.meta` are not names. `globalThis.X` (or `globalThis['X']`) reads the
 * outside name `X` too, unless the block declares its own `globalThis`.
 */
import { parse } from 'acorn';
import type { Node } from 'acorn';
import { sourceHash } from './source-hash.ts';

/**
 * Every name the global object of a block's compartment defines (core/hardened-realm-script.js: SES's
 * shared intrinsics, Node's `Date`/`Math`/`Intl` and a quiet `console`). A block may read these
 * without `uses`: trials and fleet instances give it the same ones. Held equal to a real
 * compartment's by test/core/block-free-names.test.ts. Node's own globals (`process`, `Buffer`,
 * `setTimeout`, `fetch`, `URL`...) are not among them: a trial has none of them.
 */
export const REALM_GLOBALS: ReadonlySet<string> = new Set([
  'Infinity', 'NaN', 'undefined', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'decodeURI', 'decodeURIComponent',
  'encodeURI', 'encodeURIComponent', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean',
  'DataView', 'EvalError', 'Int8Array', 'Int16Array', 'Int32Array', 'Map', 'Number', 'Object', 'Promise', 'Proxy',
  'RangeError', 'ReferenceError', 'Set', 'String', 'SyntaxError', 'TypeError', 'Uint8Array', 'Uint8ClampedArray',
  'Uint16Array', 'Uint32Array', 'URIError', 'WeakMap', 'WeakSet', 'Iterator', 'AggregateError', 'JSON', 'Reflect',
  'escape', 'unescape', 'lockdown', 'Date', 'Error', 'RegExp', 'Symbol', 'Math', 'globalThis', 'Compartment', 'eval',
  'Function', 'console', 'Intl',
]);

/** Names every function has without declaring them. */
const IMPLICIT = new Set(['arguments']);

export interface BlockNames {
  /** Top-level declarations of an entry-form block (functions, classes, var/let/const). */
  readonly topLevel: readonly string[];
  /**
   * Names used as plain identifiers that no scope of the block declares and that it never tests
   * with `typeof` (the sandbox makes each that is not a global throw `ReferenceError`; a tested
   * one must not throw, as `typeof x` of an undeclared `x` does not in Node). In order of first use.
   */
  readonly free: readonly string[];
  /**
   * Every outside name the block reads or writes: undeclared plain identifiers (tested with
   * `typeof` as well or not) and `globalThis.X` properties, except names it only tests with
   * `typeof` (`typeof window !== 'undefined'`: written to work without them). Standard globals
   * are included.
   */
  readonly outside: readonly string[];
}

const NONE: BlockNames = Object.freeze({ topLevel: [], free: [], outside: [] }) as BlockNames;

type AnyNode = Node & Record<string, unknown>;
interface Scope {
  parent: Scope | null;
  /** Function scopes take `var` and hoisted declarations; block scopes `let`/`const`/`class`. */
  fn: boolean;
  names: Set<string>;
}
interface Ref {
  name: string;
  scope: Scope;
  typeofOnly: boolean;
  /** Read as `globalThis.name`: a use of the name only while `globalThis` is the real one. */
  viaGlobalThis?: boolean;
}

const SKIP_KEYS = new Set(['type', 'start', 'end', 'loc', 'range', 'raw', 'value', 'regex', 'bigint']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Walks one parsed block: declarations into scopes, references with the scope they occur in. */
class ScopeWalk {
  readonly refs: Ref[] = [];

  walk(node: AnyNode | null | undefined, scope: Scope): void {
    if (!node || typeof node.type !== 'string') return;
    switch (node.type) {
      case 'Identifier':
        this.refs.push({ name: node.name as string, scope, typeofOnly: false });
        return;
      case 'MemberExpression': {
        const object = node.object as AnyNode;
        const property = node.property as AnyNode;
        this.walk(object, scope);
        if (node.computed) this.walk(property, scope);
        const name = globalProperty(object, property, node.computed === true);
        if (name !== null) this.refs.push({ name, scope, typeofOnly: false, viaGlobalThis: true });
        return;
      }
      case 'UnaryExpression': {
        const argument = node.argument as AnyNode;
        if (node.operator === 'typeof' && argument.type === 'Identifier') {
          this.refs.push({ name: argument.name as string, scope, typeofOnly: true });
          return;
        }
        if (node.operator === 'typeof' && argument.type === 'MemberExpression') {
          const name = globalProperty(argument.object as AnyNode, argument.property as AnyNode, argument.computed === true);
          if (name !== null) {
            this.walk(argument.object as AnyNode, scope);
            if (argument.computed) this.walk(argument.property as AnyNode, scope);
            this.refs.push({ name, scope, typeofOnly: true, viaGlobalThis: true });
            return;
          }
        }
        this.walk(argument, scope);
        return;
      }
      case 'Property':
      case 'PropertyDefinition':
      case 'MethodDefinition':
        if (node.computed) this.walk(node.key as AnyNode, scope);
        this.walk(node.value as AnyNode, scope);
        return;
      case 'LabeledStatement':
        this.walk(node.body as AnyNode, scope);
        return;
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'MetaProperty':
      case 'Literal':
      case 'ThisExpression':
      case 'Super':
      case 'PrivateIdentifier':
      case 'TemplateElement':
        return;
      case 'VariableDeclaration': {
        const target = node.kind === 'var' ? functionScope(scope) : scope;
        for (const d of node.declarations as AnyNode[]) {
          this.declarePattern(d.id as AnyNode, target, scope);
          this.walk(d.init as AnyNode, scope);
        }
        return;
      }
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        if (node.type === 'FunctionDeclaration' && node.id) scope.names.add((node.id as AnyNode).name as string);
        const inner: Scope = { parent: scope, fn: true, names: new Set() };
        if (node.type === 'FunctionExpression' && node.id) inner.names.add((node.id as AnyNode).name as string);
        for (const p of node.params as AnyNode[]) this.declarePattern(p, inner, inner);
        const body = node.body as AnyNode;
        // The body block shares the parameters' scope (a `let` there may not redeclare one anyway).
        if (body.type === 'BlockStatement') this.walkAll(body.body as AnyNode[], inner);
        else this.walk(body, inner);
        return;
      }
      case 'ClassDeclaration':
      case 'ClassExpression': {
        if (node.type === 'ClassDeclaration' && node.id) scope.names.add((node.id as AnyNode).name as string);
        this.walk(node.superClass as AnyNode, scope);
        const inner: Scope = { parent: scope, fn: false, names: new Set() };
        if (node.id) inner.names.add((node.id as AnyNode).name as string);
        this.walk(node.body as AnyNode, inner);
        return;
      }
      case 'StaticBlock':
        this.walkAll(node.body as AnyNode[], { parent: scope, fn: true, names: new Set() });
        return;
      case 'CatchClause': {
        const inner: Scope = { parent: scope, fn: false, names: new Set() };
        if (node.param) this.declarePattern(node.param as AnyNode, inner, inner);
        this.walkAll((node.body as AnyNode).body as AnyNode[], inner);
        return;
      }
      case 'BlockStatement':
        this.walkAll(node.body as AnyNode[], { parent: scope, fn: false, names: new Set() });
        return;
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'SwitchStatement':
        this.walkChildren(node, { parent: scope, fn: false, names: new Set() });
        return;
      case 'ObjectPattern':
      case 'ArrayPattern':
      case 'AssignmentPattern':
      case 'RestElement':
        // Outside a declaration a pattern assigns to names: each identifier is a use of a name.
        this.assignPattern(node, scope);
        return;
      default:
        this.walkChildren(node, scope);
    }
  }

  walkAll(nodes: (AnyNode | null)[], scope: Scope): void {
    for (const n of nodes) this.walk(n, scope);
  }

  walkChildren(node: AnyNode, scope: Scope): void {
    for (const key of Object.keys(node)) {
      if (SKIP_KEYS.has(key)) continue;
      const v = node[key];
      if (Array.isArray(v)) this.walkAll(v as AnyNode[], scope);
      else if (v && typeof v === 'object' && typeof (v as AnyNode).type === 'string') this.walk(v as AnyNode, scope);
    }
  }

  /** Declares the names bound by a pattern in `target`; defaults and computed keys are uses in `scope`. */
  declarePattern(p: AnyNode | null, target: Scope, scope: Scope): void {
    if (!p) return;
    switch (p.type) {
      case 'Identifier':
        target.names.add(p.name as string);
        return;
      case 'ObjectPattern':
        for (const prop of p.properties as AnyNode[]) {
          if (prop.type === 'RestElement') this.declarePattern(prop.argument as AnyNode, target, scope);
          else {
            if (prop.computed) this.walk(prop.key as AnyNode, scope);
            this.declarePattern(prop.value as AnyNode, target, scope);
          }
        }
        return;
      case 'ArrayPattern':
        for (const e of p.elements as (AnyNode | null)[]) this.declarePattern(e, target, scope);
        return;
      case 'RestElement':
        this.declarePattern(p.argument as AnyNode, target, scope);
        return;
      case 'AssignmentPattern':
        this.declarePattern(p.left as AnyNode, target, scope);
        this.walk(p.right as AnyNode, scope);
        return;
      default:
        this.walk(p, scope);
    }
  }

  assignPattern(p: AnyNode, scope: Scope): void {
    switch (p.type) {
      case 'ObjectPattern':
        for (const prop of p.properties as AnyNode[]) {
          if (prop.type === 'RestElement') this.walk(prop.argument as AnyNode, scope);
          else {
            if (prop.computed) this.walk(prop.key as AnyNode, scope);
            this.walk(prop.value as AnyNode, scope);
          }
        }
        return;
      case 'ArrayPattern':
        this.walkAll(p.elements as (AnyNode | null)[], scope);
        return;
      case 'RestElement':
        this.walk(p.argument as AnyNode, scope);
        return;
      case 'AssignmentPattern':
        this.walk(p.left as AnyNode, scope);
        this.walk(p.right as AnyNode, scope);
        return;
    }
  }
}

function functionScope(scope: Scope): Scope {
  let s = scope;
  while (!s.fn && s.parent) s = s.parent;
  return s;
}

/** `X` for `globalThis.X` / `globalThis['X']`; null for anything else (the object is resolved as a name later). */
function globalProperty(object: AnyNode, property: AnyNode, computed: boolean): string | null {
  if (object.type !== 'Identifier' || object.name !== 'globalThis') return null;
  if (!computed && property.type === 'Identifier') return property.name as string;
  if (computed && property.type === 'Literal' && typeof property.value === 'string') return property.value;
  return null;
}

function declaredIn(name: string, scope: Scope): boolean {
  for (let s: Scope | null = scope; s; s = s.parent) if (s.names.has(name)) return true;
  return false;
}

/**
 * Parses a block: a function expression as `fn.toString()` gives it (`entryless`; also a method
 * shorthand such as `price(x) { ... }`), or a script declaring an entry. Unparseable text gives
 * no names: the sandbox reports its syntax error.
 */
function analyse(source: string, entryless: boolean): BlockNames {
  const options = { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true } as const;
  let program: AnyNode;
  try {
    program = parse(entryless ? `(${source}\n)` : source, options) as unknown as AnyNode;
  } catch {
    if (!entryless) return NONE;
    try {
      program = parse(`({${source}\n})`, options) as unknown as AnyNode;
    } catch {
      return NONE;
    }
  }
  const root: Scope = { parent: null, fn: true, names: new Set() };
  const walk = new ScopeWalk();
  walk.walkAll(program.body as AnyNode[], root);
  const plain = new Set<string>();
  const viaGlobal = new Set<string>();
  const tested = new Set<string>();
  for (const ref of walk.refs) {
    // `globalThis.X` names X only while `globalThis` is the real one.
    if (ref.viaGlobalThis && declaredIn('globalThis', ref.scope)) continue;
    if (IMPLICIT.has(ref.name) || declaredIn(ref.name, ref.scope)) continue;
    if (ref.typeofOnly) tested.add(ref.name);
    else if (ref.viaGlobalThis) viaGlobal.add(ref.name);
    else plain.add(ref.name);
  }
  // Shared through the cache: nobody may change them.
  return Object.freeze({
    topLevel: Object.freeze(entryless ? [] : [...root.names]),
    free: Object.freeze([...plain].filter((n) => !tested.has(n))),
    outside: Object.freeze([...new Set([...plain, ...viaGlobal])]),
  }) as BlockNames;
}

const cache = new Map<string, BlockNames>();
const CACHE_MAX = 1024;

/** The names of a block (see `BlockNames`), memoised per source hash (bounded: cleared when full). */
export function blockNames(source: string, entryless: boolean): BlockNames {
  const key = `${entryless ? 'f' : 's'}${sourceHash(source)}`;
  let names = cache.get(key);
  if (names === undefined) {
    names = analyse(source, entryless);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, names);
  }
  return names;
}

/**
 * The outside names a block reads that suture cannot give a trial: free names that are not
 * standard globals of the realm and not among `uses` (the names the app passes with the block).
 * Names only tested with `typeof` are left out: the block is written to work without them.
 * `entry` names the entry of a script-form block; absent or '' for a function expression.
 */
export function unknownFreeNames(source: string, uses: readonly string[] = [], entry?: string): string[] {
  const names = blockNames(source, entry === undefined || entry === '');
  const given = new Set(uses);
  return names.outside.filter((n) => !REALM_GLOBALS.has(n) && !given.has(n));
}

/**
 * Names a failing call proved undefined where the block really ran: its error was
 * `ReferenceError: X is not defined`. Reading such a name is the bug itself (a typo, a variable
 * never declared), not a value suture lacks, so the block may be searched without it.
 */
export function namesProvenAbsent(errors: readonly { name?: string; message?: string }[]): string[] {
  const names = new Set<string>();
  for (const e of errors) {
    const m = e.name === 'ReferenceError' ? /^([A-Za-z_$][\w$]*) is not defined$/.exec(e.message ?? '') : null;
    if (m) names.add(m[1]);
  }
  return [...names];
}

/** What a block that reads names suture cannot see is told: "block 'price' reads RATES, which suture cannot see; pass it in uses". */
export function cannotSeeMessage(blockId: string, names: readonly string[]): string {
  const list = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `block '${blockId}' reads ${list}, which suture cannot see; pass ${names.length === 1 ? 'it' : 'them'} in uses`;
}
