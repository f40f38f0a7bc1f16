import { type SyntaxNode, isFunctionNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import type { Binding } from '../scope-analysis.ts';
import { REALM_GLOBALS } from '../../../../core/block-free-names.ts';

/** Whether a binding holds a function (a declaration, or a const/let initialised with one). */
export function isFunctionBinding(ctx: MutationContext, binding: Binding): boolean {
  if (binding.kind === 'function' || binding.kind === 'class') return true;
  const declarator = ctx.parent(binding.id);
  return declarator?.type === 'VariableDeclarator' && declarator.id === binding.id && !!declarator.init &&
    (isFunctionNode(declarator.init) || declarator.init.type === 'ClassExpression');
}

/**
 * Variables usable at `at`: declared in the block, visible there, not in their temporal dead zone,
 * not functions, and (for a write) assignable.
 */
export function usableVariables(ctx: MutationContext, at: SyntaxNode, forWrite: boolean): Binding[] {
  const out: Binding[] = [];
  for (const binding of ctx.scopes.visibleAt(at).values()) {
    if (isFunctionBinding(ctx, binding)) continue;
    if (forWrite && binding.kind === 'const') continue;
    if ((binding.kind === 'let' || binding.kind === 'const') && binding.id.start > at.start) continue;
    // A declaration's own initialiser cannot read the variable being declared.
    const declarator = ctx.parent(binding.id);
    if (declarator?.type === 'VariableDeclarator' && declarator.init && declarator.init.start <= at.start && at.end <= declarator.init.end) continue;
    out.push(binding);
  }
  return out;
}

/**
 * Variable misuse: each variable read or written replaced by another variable in scope there. A
 * name read that nothing declares and no realm global provides (an undeclared variable: a typo, or
 * a name left from an older version) is replaced the same way, first by the names of its own
 * function: it can only throw ReferenceError.
 */
export function variableReplacement(ctx: MutationContext): void {
  for (const id of ctx.nodes('Identifier')) {
    const role = ctx.scopes.role(id);
    if (role !== 'read' && role !== 'write') continue;
    const own = ctx.scopes.resolve(id);
    const undeclared = !own && role === 'read' && !REALM_GLOBALS.has(id.name);
    if (!undeclared && (!own || isFunctionBinding(ctx, own))) continue;
    const fn = ctx.functionOf(id);
    for (const binding of usableVariables(ctx, id, role === 'write')) {
      if (binding.name === id.name) continue;
      // Names of the same function are likelier substitutes than ones captured from outside it.
      const sameFunction = ctx.functionOf(binding.id) === fn || binding.scope === fn;
      const mutation = ctx.addReplace('variable', sameFunction ? PRIORS.variable : PRIORS.variable - 0.05, id, binding.name, Precedence.primary);
      if (mutation && mutation.edits[0].start === id.start && mutation.edits[0].end === id.end) mutation.safe = true;
    }
  }
}
