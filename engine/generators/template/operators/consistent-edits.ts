import type { Edit } from '../../../../core/types.ts';
import type { SyntaxNode } from '../../../syntax/syntax-tree.ts';
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
 * - two parameters of a function swapped in every read of its body (arguments taken in the wrong order).
 */
export function consistentEdits(ctx: MutationContext): void {
  flipFlag(ctx);
  swapIndexes(ctx);
  swapParameters(ctx);
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
