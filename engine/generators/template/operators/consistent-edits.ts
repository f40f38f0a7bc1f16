import type { Edit } from '../../../../core/types.ts';
import type { SyntaxNode } from '../../../syntax/index.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

const MAX_SITES = 24;

/**
 * One edit applied at every similar site, as a single candidate: a bug repeated consistently (two fields of a
 * record mixed up everywhere, a flag whose every assignment is inverted) needs as many edits as it has sites,
 * beyond what pairs of single edits reach.
 *
 * - every boolean literal written to one variable flipped (`let found = false … found = true` inverted);
 * - two indexed reads of the same object swapped everywhere (`t[0]` ↔ `t[1]`);
 * - two parameters of a function swapped in every read of its body (arguments taken in the wrong order);
 * - every boolean a function returns inverted (a predicate answering the opposite question:
 *   `for (const u of users) if (u.banned) return true; return false` meant as "all allowed");
 * - every comparison against one numeric bound moved by one step at once (a limit written twice,
 *   `if (n > 100) … else if (n <= 100)`, off by one in both places).
 */
export function consistentEdits(ctx: MutationContext): void {
  flipFlag(ctx);
  swapIndexes(ctx);
  swapParameters(ctx);
  flipReturns(ctx);
  consistentBound(ctx);
}

function flipReturns(ctx: MutationContext): void {
  const byFunction = new Map<SyntaxNode, SyntaxNode[]>();
  for (const ret of ctx.nodes('ReturnStatement')) {
    const value = ret.argument;
    const fn = ctx.functionOf(ret);
    if (!fn || value?.type !== 'Literal' || typeof value.value !== 'boolean') continue;
    const list = byFunction.get(fn) ?? [];
    list.push(value);
    byFunction.set(fn, list);
  }
  for (const literals of byFunction.values()) {
    // One return is the literal flip already; both values must occur for the function to be a predicate.
    if (literals.length < 2 || literals.length > MAX_SITES || literals.every((l) => l.value === literals[0].value)) continue;
    const edits: Edit[] = literals.map((l) => ({ start: l.start, end: l.end, text: l.value ? 'false' : 'true' }));
    const mutation = ctx.add('flip-returns', PRIORS.flipReturns, { start: literals[0].start, end: literals.at(-1)!.end }, edits,
      `invert every boolean returned (${literals.length} returns) from ${ctx.position(literals[0].start)}`);
    if (mutation) mutation.safe = true;
  }
}

const ORDERINGS = new Set(['<', '<=', '>', '>=', '==', '===', '!=', '!==']);

function consistentBound(ctx: MutationContext): void {
  const byValue = new Map<string, SyntaxNode[]>();
  for (const comparison of ctx.nodes('BinaryExpression')) {
    if (!ORDERINGS.has(comparison.operator)) continue;
    for (const side of [comparison.left, comparison.right]) {
      if (side.type !== 'Literal' || typeof side.value !== 'number' || !Number.isInteger(side.value)) continue;
      const list = byValue.get(side.raw) ?? [];
      list.push(side);
      byValue.set(side.raw, list);
    }
  }
  for (const literals of byValue.values()) {
    if (literals.length < 2 || literals.length > MAX_SITES) continue;
    for (const step of [1, -1]) {
      const text = String(literals[0].value + step);
      const mutation = ctx.add('consistent-bound', PRIORS.consistentLiteral, { start: literals[0].start, end: literals.at(-1)!.end },
        literals.map((l) => ({ start: l.start, end: l.end, text })),
        `compare against \`${text}\` instead of \`${literals[0].raw}\` everywhere (${literals.length} sites) from ${ctx.position(literals[0].start)}`);
      if (mutation) mutation.safe = !text.startsWith('-');
    }
  }
}

function flipFlag(ctx: MutationContext): void {
  const writes = new Map<string, SyntaxNode[]>();
  const note = (id: SyntaxNode, value: SyntaxNode | null): void => {
    if (id.type !== 'Identifier' || !value || value.type !== 'Literal' || typeof value.value !== 'boolean') return;
    const binding = ctx.scopes.resolve(id);
    if (!binding || binding.kind === 'const') return;
    const key = `${binding.name}@${binding.id.start}`;
    const list = writes.get(key) ?? [];
    list.push(value);
    writes.set(key, list);
  };
  for (const d of ctx.nodes('VariableDeclarator')) note(d.id, d.init);
  for (const a of ctx.nodes('AssignmentExpression')) if (a.operator === '=') note(a.left, a.right);
  for (const [key, literals] of writes) {
    if (literals.length < 2 || literals.length > MAX_SITES) continue;
    const edits: Edit[] = literals.map((l) => ({ start: l.start, end: l.end, text: l.value ? 'false' : 'true' }));
    const name = key.slice(0, key.indexOf('@'));
    const mutation = ctx.add('flip-flag', PRIORS.consistentFlip, { start: literals[0].start, end: literals.at(-1)!.end }, edits,
      `flip every boolean written to \`${name}\` (${literals.length} sites) from ${ctx.position(literals[0].start)}`);
    if (mutation) mutation.safe = true;
  }
}

/** Reads `x[k]` with a literal `k`, grouped by the text of `x`, then by `k`. */
function swapIndexes(ctx: MutationContext): void {
  const byObject = new Map<string, Map<string, SyntaxNode[]>>();
  for (const m of ctx.nodes('MemberExpression')) {
    if (!m.computed || m.property.type !== 'Literal' || typeof m.property.value !== 'number') continue;
    if (m.object.type !== 'Identifier' || !ctx.isRead(m) || !ctx.inFunction(m)) continue;
    const object = `${m.object.name}@${ctx.scopes.resolve(m.object)?.id.start ?? -1}`;
    const byIndex = byObject.get(object) ?? new Map<string, SyntaxNode[]>();
    const list = byIndex.get(m.property.raw) ?? [];
    list.push(m.property);
    byIndex.set(m.property.raw, list);
    byObject.set(object, byIndex);
  }
  for (const byIndex of byObject.values()) {
    const indexes = [...byIndex.keys()];
    if (indexes.length > 4) continue;
    for (let i = 0; i < indexes.length; i++) {
      for (let j = i + 1; j < indexes.length; j++) {
        const a = byIndex.get(indexes[i])!;
        const b = byIndex.get(indexes[j])!;
        // A single pair of sites is already one swap or two literal edits.
        if (a.length + b.length < 3 || a.length + b.length > MAX_SITES) continue;
        const edits: Edit[] = [
          ...a.map((n) => ({ start: n.start, end: n.end, text: indexes[j] })),
          ...b.map((n) => ({ start: n.start, end: n.end, text: indexes[i] })),
        ];
        const first = Math.min(a[0].start, b[0].start);
        const mutation = ctx.add('swap-everywhere', PRIORS.consistentSwap, { start: first, end: Math.max(a.at(-1)!.end, b.at(-1)!.end) }, edits,
          `swap every \`[${indexes[i]}]\` and \`[${indexes[j]}]\` read of the same object from ${ctx.position(first)}`);
        if (mutation) mutation.safe = true;
      }
    }
  }
}

function swapParameters(ctx: MutationContext): void {
  for (const fn of ctx.tree.nodes) {
    const params = fn.params as SyntaxNode[] | undefined;
    if (!params || params.length < 2 || params.length > 4 || !fn.body) continue;
    const ids = params.filter((p) => p.type === 'Identifier');
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = ids[i];
        const b = ids[j];
        // The declaration swapped is the same program as every read swapped, and one edit pair long.
        ctx.add('swap-parameters', PRIORS.consistentSwap, fn, [
          { start: a.start, end: a.end, text: b.name },
          { start: b.start, end: b.end, text: a.name },
        ], `swap parameters \`${a.name}\` and \`${b.name}\` at ${ctx.position(a.start)}`);
      }
    }
  }
}
