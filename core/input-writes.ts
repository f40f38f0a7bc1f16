/**
 * Whether a block can change its inputs (its arguments and `this`) while it runs, decided once from
 * its source. A block that cannot leaves its inputs as they were on entry until the moment it
 * throws, so a failure report made after the throw shows the entry state without the SDK having
 * copied the inputs on entry.
 *
 * The answer is "cannot" only when the source proves it: no assignment, update or `delete` whose
 * target is a property (`a.b = …`, `a[i]++`, `delete a.b`, also in nested functions), no spread
 * or destructuring default can write either, and every call is one that writes nothing it is
 * given — a listed pure global (`Math.max`, `JSON.stringify`, `Object.keys`, …) or a listed
 * reading method (`map`, `slice`, `toFixed`, …) whose callbacks, if any, are written in the block
 * itself. Any other call (a helper, a method that may sort or push, a function argument) could
 * write, so the answer is then "may". Getters and proxies in the inputs are not seen; a source
 * that does not parse "may".
 */
import { parse } from 'acorn';

type AnyNode = { type: string; [key: string]: unknown };

/** Globals whose functions write nothing they are given. */
const PURE_GLOBALS: Record<string, ReadonlySet<string> | true> = {
  Math: true,
  JSON: new Set(['stringify', 'parse']),
  Number: true,
  String: new Set(['fromCharCode', 'fromCodePoint', 'raw']),
  Object: new Set(['keys', 'values', 'entries', 'is', 'getPrototypeOf', 'hasOwn', 'isFrozen', 'isSealed', 'isExtensible']),
  Array: new Set(['isArray', 'of']),
  Date: new Set(['now', 'parse', 'UTC']),
  BigInt: true,
};
/** Plain global functions that write nothing. */
const PURE_FUNCTIONS = new Set(['Number', 'String', 'Boolean', 'BigInt', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'Date', 'Error', 'TypeError', 'RangeError', 'encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI']);
/** Methods that only read their receiver (strings, numbers, arrays, dates, maps). */
const READING_METHODS = new Set([
  'at', 'charAt', 'charCodeAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'join', 'slice', 'substring', 'substr',
  'startsWith', 'split', 'trim', 'trimStart', 'trimEnd', 'padStart', 'padEnd', 'repeat', 'replace', 'replaceAll', 'toLowerCase', 'toUpperCase',
  'toLocaleLowerCase', 'toLocaleUpperCase', 'toFixed', 'toPrecision', 'toString', 'toLocaleString', 'valueOf', 'normalize', 'localeCompare', 'match',
  'matchAll', 'search', 'getTime', 'getFullYear', 'getMonth', 'getDate', 'getDay', 'getHours', 'getMinutes', 'getSeconds', 'getUTCFullYear',
  'getUTCMonth', 'getUTCDate', 'getUTCDay', 'getUTCHours', 'toISOString', 'has', 'get', 'keys', 'values', 'entries', 'flat', 'toSorted', 'toReversed',
  'with', 'hasOwnProperty',
  // these take callbacks: allowed only when each is written in the block (its own writes are checked)
  'map', 'filter', 'reduce', 'reduceRight', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every', 'forEach', 'flatMap',
]);

const isFunctionNode = (n: unknown): boolean => {
  const t = (n as AnyNode | null)?.type;
  return t === 'ArrowFunctionExpression' || t === 'FunctionExpression';
};

function propertyName(member: AnyNode): string | null {
  const p = member.property as AnyNode;
  if (!member.computed && p.type === 'Identifier') return p.name as string;
  if (p.type === 'Literal' && typeof p.value === 'string') return p.value;
  return null;
}

/** A call that writes nothing it is given (see the module's comment). */
function readingCall(call: AnyNode): boolean {
  const callee = call.callee as AnyNode;
  const args = call.arguments as AnyNode[];
  if (callee.type === 'Identifier') return PURE_FUNCTIONS.has(callee.name as string);
  if (callee.type !== 'MemberExpression') return false;
  const name = propertyName(callee);
  if (name === null) return false;
  const object = callee.object as AnyNode;
  if (object.type === 'Identifier' && Object.hasOwn(PURE_GLOBALS, object.name as string)) {
    const allowed = PURE_GLOBALS[object.name as string];
    return allowed === true || allowed.has(name);
  }
  if (!READING_METHODS.has(name)) return false;
  // A callback that is not written here (a parameter, a helper) could write anything.
  if (!CALLBACK_METHODS.has(name)) return true;
  return args.every((a) => isFunctionNode(a) || a.type === 'Literal' || a.type === 'TemplateLiteral');
}

/** Reading methods whose arguments may be callbacks. */
const CALLBACK_METHODS = new Set(['map', 'filter', 'reduce', 'reduceRight', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every', 'forEach', 'flatMap', 'replace', 'replaceAll']);

function writesTarget(target: AnyNode): boolean {
  switch (target.type) {
    case 'MemberExpression':
      return true;
    case 'ObjectPattern':
      return (target.properties as AnyNode[]).some((p) => writesTarget((p.type === 'RestElement' ? p.argument : p.value) as AnyNode));
    case 'ArrayPattern':
      return (target.elements as (AnyNode | null)[]).some((e) => e !== null && writesTarget(e));
    case 'AssignmentPattern':
      return writesTarget(target.left as AnyNode);
    case 'RestElement':
      return writesTarget(target.argument as AnyNode);
    default:
      return false;
  }
}

/** Whether `node` (or anything under it) may write to an object. */
function mayWrite(node: AnyNode): boolean {
  switch (node.type) {
    case 'AssignmentExpression':
      if (writesTarget(node.left as AnyNode)) return true;
      break;
    case 'UpdateExpression':
      if (writesTarget(node.argument as AnyNode)) return true;
      break;
    case 'UnaryExpression':
      if (node.operator === 'delete') return true;
      break;
    case 'ForInStatement':
    case 'ForOfStatement':
      if (writesTarget(node.left as AnyNode)) return true;
      break;
    case 'CallExpression':
      if (!readingCall(node)) return true;
      break;
    case 'NewExpression':
      if ((node.callee as AnyNode).type !== 'Identifier' || !PURE_FUNCTIONS.has((node.callee as AnyNode).name as string)) return true;
      break;
    case 'TaggedTemplateExpression':
    case 'ImportExpression':
      return true;
    default:
      break;
  }
  for (const key of Object.keys(node)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
    const v = node[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c === 'object' && typeof (c as AnyNode).type === 'string' && mayWrite(c as AnyNode)) return true;
    } else if (v && typeof v === 'object' && typeof (v as AnyNode).type === 'string' && mayWrite(v as AnyNode)) return true;
  }
  return false;
}

/**
 * True when the block (a function's source as `fn.toString()` gives it, method shorthand
 * included) provably writes to no object while it runs, so its inputs at a throw are its inputs
 * on entry.
 */
export function writesNoInput(source: string): boolean {
  const options = { ecmaVersion: 'latest', sourceType: 'script' } as const;
  let program: AnyNode;
  try {
    program = parse(`(${source}\n)`, options) as unknown as AnyNode;
  } catch {
    try {
      program = parse(`({${source}\n})`, options) as unknown as AnyNode;
    } catch {
      return false;
    }
  }
  return !mayWrite(program);
}
