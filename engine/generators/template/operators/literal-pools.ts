import type { SyntaxNode } from '../../../syntax/index.ts';
import type { MutationContext } from '../mutation-context.ts';

/** A constant written in the block, as a value and as source text. */
export interface PooledLiteral {
  kind: 'number' | 'string' | 'boolean' | 'null';
  value: number | string | boolean | null;
  text: string;
}

const MAX_POOL = 14;
const MAX_STRING = 30;

/** A number literal, or a negated one (`-1`), with its value. */
export function numericValue(node: SyntaxNode): number | undefined {
  if (node.type === 'Literal' && typeof node.value === 'number') return node.value;
  if (node.type === 'UnaryExpression' && node.operator === '-' && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
    return -node.argument.value;
  }
  return undefined;
}

/** Literals that are not keys, directives or module names: the constants the code computes with. */
export function valueLiterals(ctx: MutationContext): SyntaxNode[] {
  return ctx.nodes('Literal').filter((node) => {
    const parent = ctx.parent(node);
    const key = ctx.key(node);
    if (!parent) return true;
    if ((parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && key === 'key' && !parent.computed) return false;
    if (parent.type === 'ExpressionStatement' && parent.directive !== undefined) return false;
    if (parent.type.startsWith('Import') || parent.type.startsWith('Export')) return false;
    return node.regex === undefined && node.bigint === undefined;
  });
}

/** Distinct constants of the block in source order, for literal replacement and constant returns. */
export function literalPool(ctx: MutationContext): PooledLiteral[] {
  const seen = new Set<string>();
  const pool: PooledLiteral[] = [];
  const push = (literal: PooledLiteral): void => {
    const key = `${literal.kind}:${String(literal.value)}`;
    if (seen.has(key) || pool.length >= MAX_POOL * 3) return;
    seen.add(key);
    pool.push(literal);
  };
  for (const node of valueLiterals(ctx)) {
    const parent = ctx.parent(node);
    const negated = parent?.type === 'UnaryExpression' && parent.operator === '-' && typeof node.value === 'number';
    if (typeof node.value === 'number') {
      const value = negated ? -node.value : node.value;
      push({ kind: 'number', value, text: negated ? `-${node.raw}` : node.raw });
    } else if (typeof node.value === 'string' && node.value.length <= MAX_STRING) {
      push({ kind: 'string', value: node.value, text: node.raw });
    } else if (typeof node.value === 'boolean') {
      push({ kind: 'boolean', value: node.value, text: node.raw });
    } else if (node.value === null) {
      push({ kind: 'null', value: null, text: 'null' });
    }
  }
  const byKind = (kind: PooledLiteral['kind']) => pool.filter((l) => l.kind === kind).slice(0, MAX_POOL);
  return [...byKind('number'), ...byKind('string'), ...byKind('boolean'), ...byKind('null')];
}
