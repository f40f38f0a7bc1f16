/**
 * Names a block declares and names it reads without declaring, found by parsing, once per trial
 * request. Both exist because a candidate runs in an SES compartment:
 * - its top-level declarations stay local to its evaluation, so the harness hands them (guarded)
 *   to `script` cases, which may call helpers beside the entry (a decoder test that calls the
 *   block's encoder);
 * - a compartment answers `undefined` for a name nobody declared where Node throws
 *   `ReferenceError: x is not defined`; the harness defines each free name that is not a global
 *   of the compartment as one that throws that error, so a block fails in a trial as it fails in Node.
 */
import { parse } from 'acorn';
import { simple as acornSimple } from 'acorn-walk';
import type { Node } from 'acorn';

/** acorn-walk's `simple`, with the `VariablePattern` visitor and start-type argument its types omit. */
const simple = acornSimple as unknown as (
  node: Node,
  visitors: Record<string, (node: Node) => void>,
  base?: undefined,
  state?: undefined,
  override?: string,
) => void;

export interface BlockNames {
  /** Top-level declarations of an entry-form block (functions, classes, var/let/const). */
  topLevel: string[];
  /** Identifiers read or called that no declaration, parameter or `typeof` test in the block covers. */
  free: string[];
}

const NONE: BlockNames = { topLevel: [], free: [] };
const IMPLICIT = new Set(['arguments', 'undefined']);

export function blockNames(source: string, entryless: boolean): BlockNames {
  let program: Node;
  try {
    program = parse(entryless ? `(${source})` : source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  } catch {
    return NONE;
  }
  const declared = new Set<string>();
  const read = new Set<string>();
  const typeofTested = new Set<string>();
  type Named = Node & { name: string };
  type Unary = Node & { operator: string; argument: Node };
  simple(program, {
    Identifier(node: Node) { read.add((node as Named).name); },
    VariablePattern(node: Node) { declared.add((node as Named).name); },
    UnaryExpression(node: Node) {
      const u = node as Unary;
      if (u.operator === 'typeof' && u.argument.type === 'Identifier') typeofTested.add((u.argument as Named).name);
    },
  });
  const free = [...read].filter((n) => !declared.has(n) && !typeofTested.has(n) && !IMPLICIT.has(n));
  const topLevel: string[] = [];
  if (!entryless) {
    for (const statement of (program as Node & { body: Node[] }).body) {
      const s = statement as Node & { id?: Named | null; declarations?: Array<Node & { id: Node }> };
      if ((s.type === 'FunctionDeclaration' || s.type === 'ClassDeclaration') && s.id) topLevel.push(s.id.name);
      else if (s.type === 'VariableDeclaration') {
        for (const d of s.declarations ?? []) simple(d.id, { VariablePattern(node: Node) { topLevel.push((node as Named).name); } }, undefined, undefined, 'Pattern');
      }
    }
  }
  return { topLevel, free };
}
