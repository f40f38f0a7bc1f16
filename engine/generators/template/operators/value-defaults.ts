import type { SyntaxNode } from '../../../syntax/index.ts';
import type { MutationContext } from '../mutation-context.ts';

/** Members that only strings have. */
export const STRING_MEMBERS = new Set(['trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'split', 'charAt', 'charCodeAt',
  'startsWith', 'endsWith', 'replace', 'replaceAll', 'padStart', 'padEnd', 'substring', 'substr', 'localeCompare', 'normalize', 'repeat', 'codePointAt']);
/** Members that arrays have (and are the likelier reading of `.length`). */
export const ARRAY_MEMBERS = new Set(['length', 'map', 'filter', 'forEach', 'reduce', 'reduceRight', 'some', 'every', 'find', 'findIndex',
  'findLast', 'join', 'slice', 'push', 'pop', 'shift', 'unshift', 'includes', 'indexOf', 'lastIndexOf', 'concat', 'flat', 'flatMap', 'sort',
  'reverse', 'splice', 'at', 'entries', 'keys', 'values', 'fill', 'toSorted', 'toReversed']);

const ARITHMETIC = new Set(['-', '*', '/', '%', '**', '<', '<=', '>', '>=', '+']);

/** The empty value a missing object should default to, given the member read from it. */
export function defaultForMember(property: string): string {
  if (STRING_MEMBERS.has(property)) return "''";
  if (ARRAY_MEMBERS.has(property)) return '[]';
  return '{}';
}

/**
 * The empty value of the type `node`'s result is used as next (`.trim()` → `''`, `.length`/`.map`/iteration →
 * `[]`, arithmetic → `0`, property read → `{}`), or undefined when the use says nothing.
 */
export function defaultForUse(ctx: MutationContext, node: SyntaxNode, depth = 0): string | undefined {
  const parent = ctx.parent(node);
  const key = ctx.key(node);
  if (!parent) return undefined;
  switch (parent.type) {
    case 'MemberExpression':
      if (key !== 'object') return undefined;
      return parent.computed ? '[]' : defaultForMember(parent.property.name);
    case 'BinaryExpression':
      if (!ARITHMETIC.has(parent.operator)) return undefined;
      if (parent.operator === '+') {
        const other = key === 'left' ? parent.right : parent.left;
        if (other.type === 'Literal' && typeof other.value === 'string') return "''";
        if (other.type === 'TemplateLiteral') return "''";
      }
      return '0';
    case 'AssignmentExpression':
      return key === 'right' && ['+=', '-=', '*=', '/='].includes(parent.operator) ? '0' : undefined;
    case 'UnaryExpression':
      return parent.operator === '-' || parent.operator === '+' ? '0' : undefined;
    case 'ForOfStatement':
      return key === 'right' ? '[]' : undefined;
    case 'SpreadElement':
      return '[]';
    case 'TemplateLiteral':
      return "''";
    case 'VariableDeclarator':
      // `const armor = enemy.stats?.armor` says nothing by itself: ask how `armor` is used.
      return key === 'init' && depth < 3 ? defaultForBinding(ctx, parent.id, depth + 1) : undefined;
    default:
      return undefined;
  }
}

/** The default the first telling use of a variable asks for. */
function defaultForBinding(ctx: MutationContext, id: SyntaxNode, depth: number): string | undefined {
  if (id.type !== 'Identifier') return undefined;
  for (const ref of ctx.nodes('Identifier')) {
    if (ref === id || ref.name !== id.name || ref.start < id.end) continue;
    if (ctx.scopes.resolve(ref)?.id !== id) continue;
    const found = defaultForUse(ctx, ref, depth);
    if (found) return found;
  }
  return undefined;
}

/** The empty value a function returns, judged from its other return statements. */
export function defaultReturn(ctx: MutationContext, fn: SyntaxNode | null): string | undefined {
  if (!fn) return undefined;
  for (const ret of ctx.nodes('ReturnStatement')) {
    if (!ret.argument || ctx.functionOf(ret) !== fn) continue;
    const value = ret.argument;
    switch (value.type) {
      case 'ArrayExpression': return '[]';
      case 'ObjectExpression': return '{}';
      case 'TemplateLiteral': return "''";
      case 'Literal':
        if (typeof value.value === 'number') return '0';
        if (typeof value.value === 'string') return "''";
        if (typeof value.value === 'boolean') return 'false';
        return 'null';
      case 'BinaryExpression':
        if (['<', '<=', '>', '>=', '==', '!=', '===', '!==', 'in', 'instanceof'].includes(value.operator)) return 'false';
        if (['-', '*', '/', '%', '**'].includes(value.operator)) return '0';
        break;
      case 'CallExpression':
        if (value.callee.type === 'MemberExpression' && !value.callee.computed) {
          const name = value.callee.property.name;
          if (['map', 'filter', 'slice', 'concat', 'split', 'sort', 'flat', 'flatMap'].includes(name)) return '[]';
          if (['join', 'trim', 'toLowerCase', 'toUpperCase', 'replace', 'toString'].includes(name)) return "''";
        }
        break;
      default:
        break;
    }
  }
  return undefined;
}
