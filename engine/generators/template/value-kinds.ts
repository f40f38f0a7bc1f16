import type { SyntaxNode } from '../../syntax/index.ts';
import type { MutationContext } from './mutation-context.ts';
import { ARRAY_MEMBERS, STRING_MEMBERS } from './operators/value-defaults.ts';

/** Methods whose result is an array whatever their receiver. */
const ARRAY_RESULT_METHODS = new Set(['map', 'filter', 'slice', 'concat', 'split', 'sort', 'reverse', 'flat', 'flatMap', 'toSorted',
  'toReversed', 'splice', 'match']);
const ARRAY_RESULT_FUNCTIONS = new Set(['Object.keys', 'Object.values', 'Object.entries', 'Array.from', 'Array.of']);
/** Array members that strings lack, so a call of one marks its receiver as an array. */
const ARRAY_ONLY = [...ARRAY_MEMBERS].filter((m) => !STRING_MEMBERS.has(m) && !['length', 'slice', 'concat', 'includes', 'indexOf', 'lastIndexOf', 'at'].includes(m));
const STRING_RESULT_METHODS = new Set(['join', 'trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'replace', 'replaceAll',
  'padStart', 'padEnd', 'substring', 'substr', 'charAt', 'repeat', 'toFixed', 'toISOString', 'normalize']);

export type ValueKind = 'array' | 'string';

/**
 * What kind of value an expression holds, judged from the block alone: what it is built by (`.map(...)`,
 * `Object.keys(...)`, `[...]`, `.join(...)`, a template) or, for a variable, from its initialiser and the
 * methods the block calls on it. Undefined when the block does not say.
 */
export function valueKind(ctx: MutationContext, node: SyntaxNode, depth = 0): ValueKind | undefined {
  switch (node.type) {
    case 'ArrayExpression': return 'array';
    case 'TemplateLiteral': return 'string';
    case 'Literal': return typeof node.value === 'string' ? 'string' : undefined;
    case 'CallExpression': {
      const callee = node.callee;
      const text = ctx.flatText(callee);
      if (ARRAY_RESULT_FUNCTIONS.has(text)) return 'array';
      if (text === 'String' || text === 'JSON.stringify') return 'string';
      if (callee.type === 'MemberExpression' && !callee.computed) {
        const name = callee.property.name as string;
        if (ARRAY_RESULT_METHODS.has(name)) return 'array';
        if (STRING_RESULT_METHODS.has(name)) return 'string';
      }
      return undefined;
    }
    case 'Identifier': {
      if (depth > 2) return undefined;
      const binding = ctx.scopes.resolve(node);
      if (!binding) return undefined;
      const declarator = ctx.parent(binding.id);
      if (declarator?.type === 'VariableDeclarator' && declarator.init && declarator.id === binding.id) {
        const fromInit = valueKind(ctx, declarator.init, depth + 1);
        if (fromInit) return fromInit;
      }
      return kindFromUses(ctx, binding.id);
    }
    default:
      return undefined;
  }
}

/** The kind the methods called on a binding's reads imply (`xs.push(...)` → array, `s.trim()` → string). */
function kindFromUses(ctx: MutationContext, declaredAt: SyntaxNode): ValueKind | undefined {
  for (const id of ctx.nodes('Identifier')) {
    if (id === declaredAt || ctx.scopes.resolve(id)?.id !== declaredAt) continue;
    const parent = ctx.parent(id);
    if (parent?.type === 'ForOfStatement' && ctx.key(id) === 'right') return 'array';
    if (parent?.type !== 'MemberExpression' || ctx.key(id) !== 'object' || parent.computed) continue;
    const name = parent.property.name as string;
    if (ARRAY_ONLY.includes(name)) return 'array';
    if (STRING_MEMBERS.has(name)) return 'string';
  }
  return undefined;
}
