import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

const REDECLARED = /has already been declared/;

/**
 * For a block that redeclares a binding (an early error: it does not compile at all): the duplicate
 * declaration deleted, or its keyword dropped so it assigns the existing binding instead (`let m = x` → `m = x`).
 */
export function redeclaration(ctx: MutationContext): void {
  for (const error of ctx.earlyErrors) {
    if (!REDECLARED.test(error.message)) continue;
    const declaration = ctx.statementAt(error.offset);
    if (!declaration || declaration.type !== 'VariableDeclaration') continue;
    const parent = ctx.parent(declaration);
    const key = ctx.key(declaration);
    const inList = !!parent && Array.isArray(parent[key ?? '']);
    const shown = ctx.text(declaration).replace(/\s+/g, ' ').slice(0, 40);
    if (declaration.declarations.length === 1 && declaration.declarations[0].init && declaration.declarations[0].id.type === 'Identifier') {
      const declarator = declaration.declarations[0];
      ctx.add('redeclaration', PRIORS.redeclarationAssign, declaration, [{ start: declaration.start, end: declarator.start, text: '' }],
        `assign instead of redeclaring in \`${shown}\` at ${ctx.position(declaration.start)}`);
    }
    if (inList) {
      ctx.add('redeclaration', PRIORS.redeclarationDelete, declaration, [{ start: declaration.start, end: declaration.end, text: '' }],
        `delete the redeclaration \`${shown}\` at ${ctx.position(declaration.start)}`);
    }
  }
}
