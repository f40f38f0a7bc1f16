import type { MutationContext } from '../mutation-context.ts';
import { Precedence } from '../expression-precedence.ts';
import { PRIORS } from '../operator-priors.ts';

/** Methods that are easily confused with each other; a call may be using the wrong member of its family. */
const FAMILIES: ReadonlyArray<readonly string[]> = [
  ['min', 'max'],
  ['floor', 'ceil', 'round', 'trunc'],
  ['push', 'unshift'],
  ['pop', 'shift'],
  ['slice', 'substring', 'substr'],
  ['indexOf', 'lastIndexOf', 'includes'],
  ['toUpperCase', 'toLowerCase'],
  ['some', 'every'],
  ['filter', 'find'],
  ['find', 'findIndex', 'findLast'],
  ['sort', 'reverse'],
  ['startsWith', 'endsWith'],
  ['keys', 'values', 'entries'],
  ['map', 'forEach', 'flatMap'],
  ['reduce', 'reduceRight'],
  ['padStart', 'padEnd'],
  ['trim', 'trimStart', 'trimEnd'],
  ['charAt', 'charCodeAt', 'at'],
  ['replace', 'replaceAll'],
  ['split', 'match'],
  ['concat', 'push'],
  ['isInteger', 'isFinite', 'isNaN', 'isSafeInteger'],
];

const FUNCTION_FAMILIES: ReadonlyArray<readonly string[]> = [['parseInt', 'parseFloat', 'Number'], ['String', 'Number', 'Boolean'], ['isNaN', 'isFinite']];

function alternatives(name: string, families: ReadonlyArray<readonly string[]>): string[] {
  const out = new Set<string>();
  for (const family of families) if (family.includes(name)) for (const other of family) if (other !== name) out.add(other);
  return [...out];
}

/**
 * Function misuse: a method swapped for a sibling (min/max, floor/ceil, slice/substring, indexOf/lastIndexOf, ...),
 * `pop()`/`at(-1)` forms, and `Math.min(xs)` → `Math.min(...xs)`.
 */
export function methodReplacement(ctx: MutationContext): void {
  for (const call of ctx.nodes('CallExpression')) {
    const callee = call.callee;
    if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') {
      const name = callee.property.name as string;
      for (const other of alternatives(name, FAMILIES)) {
        ctx.add('method', PRIORS.methodFamily, call, [{ start: callee.property.start, end: callee.property.end, text: other }],
          ctx.describeReplace(callee.property.start, name, other));
      }
      const object = ctx.text(callee.object);
      const args = call.arguments;
      if (name === 'pop' && args.length === 0) ctx.addReplace('method', PRIORS.methodFamily - 0.05, call, `${object}.at(-1)`, Precedence.call);
      if (name === 'shift' && args.length === 0) ctx.addReplace('method', PRIORS.methodFamily - 0.05, call, `${object}.at(0)`, Precedence.call);
      if (name === 'at' && args.length === 1 && ctx.text(args[0]).replace(/\s/g, '') === '-1') {
        ctx.addReplace('method', PRIORS.methodFamily - 0.05, call, `${object}.pop()`, Precedence.call);
      }
      if (ctx.text(callee.object) === 'Math' && (name === 'min' || name === 'max') && args.length === 1 && args[0].type !== 'SpreadElement') {
        ctx.add('method', PRIORS.methodFamily, call, [{ start: args[0].start, end: args[0].start, text: '...' }],
          `spread the argument of \`Math.${name}\` at ${ctx.position(args[0].start)}`);
      }
    } else if (callee.type === 'Identifier' && !ctx.scopes.declaredNames.has(callee.name)) {
      for (const other of alternatives(callee.name, FUNCTION_FAMILIES)) {
        ctx.add('method', PRIORS.methodFamily - 0.04, call, [{ start: callee.start, end: callee.end, text: other }],
          ctx.describeReplace(callee.start, callee.name, other));
      }
    }
  }
}
