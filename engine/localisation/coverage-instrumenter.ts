import type { Block } from '../../core/types.ts';
import { parseBlock, SyntaxTree, type SyntaxNode } from '../syntax/index.ts';

/** One coverage point: a statement, branch or expression of the ORIGINAL source. */
export interface Probe {
  id: number;
  start: number;
  end: number;
  /** 'statement' | 'branch' | 'loop-body' | 'case' | 'arrow-body' | 'conditional' | 'logical-right' */
  kind: string;
}

export interface InstrumentedBlock {
  block: Block;
  probes: Probe[];
  /** Maps an offset in the instrumented source back to the original source (for throw positions). */
  originalOffset(instrumentedOffset: number): number;
}

/** The global the sandbox resets before each case; probes set `__sutureCov[id] = 1`. */
export const COVERAGE_GLOBAL = '__sutureCov';

interface Insertion {
  pos: number;
  text: string;
  /** Closing text goes before opening text at one offset; inner closes first, outer opens first. */
  closing: boolean;
  depth: number;
  seq: number;
}

const LOOP_TYPES = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);
/** Statements that do not "run" in a way worth probing (hoisted, or no effect). */
const UNPROBED_STATEMENTS = new Set(['FunctionDeclaration', 'EmptyStatement']);

/**
 * Instruments a block so each executed statement, branch, loop body, switch case, arrow expression body,
 * conditional branch and logical right operand records `__sutureCov[id] = 1`. Behaviour is unchanged:
 * probes are separate statements (`;` guarded, after directives) or comma-sequence prefixes in parentheses,
 * single-statement positions are wrapped in blocks, and labelled loops keep their label on the loop.
 * Statements at the top level of an entry script are not probed (they run once at definition, outside any case).
 */
export function instrumentForCoverage(block: Block): InstrumentedBlock {
  const parsed = parseBlock(block);
  const tree = new SyntaxTree(parsed.root);
  const probes: Probe[] = [];
  const insertions: Insertion[] = [];
  let seq = 0;

  const addProbe = (node: SyntaxNode, kind: string): number => {
    const id = probes.length;
    probes.push({ id, start: node.start, end: node.end, kind });
    return id;
  };
  const insert = (pos: number, text: string, closing: boolean, depth: number): void => {
    insertions.push({ pos, text, closing, depth, seq: seq++ });
  };
  const probeText = (id: number): string => `${COVERAGE_GLOBAL}[${id}]=1`;

  /** A statement in a statement list: a guarded probe statement before it. */
  const probeStatementInList = (statement: SyntaxNode, kind: string, depth: number): void => {
    if (UNPROBED_STATEMENTS.has(statement.type) || statement.directive !== undefined) return;
    insert(statement.start, `;${probeText(addProbe(statement, kind))};`, false, depth);
  };

  /** A statement in a single-statement position (if branch, loop body): wrap it in a block with its probe. */
  const probeSingleStatement = (statement: SyntaxNode, kind: string, depth: number): void => {
    if (statement.type === 'BlockStatement') {
      const body = statement.body as SyntaxNode[];
      // The block's own statements are probed; an empty block still needs a marker for its branch.
      if (body.length === 0) insert(statement.start + 1, `${probeText(addProbe(statement, kind))};`, false, depth + 1);
      return;
    }
    const id = addProbe(statement, kind);
    insert(statement.start, `{;${probeText(id)};`, false, depth);
    insert(statement.end, '}', true, depth);
  };

  /** An expression whose evaluation is conditional: `(probe, expr)`. */
  const probeExpression = (expression: SyntaxNode, kind: string, depth: number): void => {
    const id = addProbe(expression, kind);
    insert(expression.start, `(${probeText(id)}, `, false, depth);
    insert(expression.end, ')', true, depth);
  };

  for (const node of tree.nodes) {
    const info = tree.info(node);
    const depth = info.depth;
    const topLevel = info.fn === null && parsed.form === 'entry';
    const inRunTimeCode = info.fn !== null;
    switch (node.type) {
      case 'BlockStatement':
      case 'StaticBlock':
      case 'Program': {
        if (topLevel || node.type === 'Program') break;
        for (const statement of node.body as SyntaxNode[]) probeStatementInList(statement, 'statement', depth + 1);
        break;
      }
      case 'SwitchCase': {
        if (!inRunTimeCode) break;
        const consequent = node.consequent as SyntaxNode[];
        // The case marker goes right after `case x:`; an empty case falls through after recording itself.
        const colon = consequent.length > 0 ? consequent[0].start : node.end;
        insert(colon, `;${probeText(addProbe(node, 'case'))};`, false, depth + 1);
        for (const statement of consequent) probeStatementInList(statement, 'statement', depth + 1);
        break;
      }
      case 'IfStatement': {
        if (!inRunTimeCode) break;
        probeSingleStatement(node.consequent, 'branch', depth + 1);
        if (node.alternate) probeSingleStatement(node.alternate, 'branch', depth + 1);
        break;
      }
      case 'WithStatement': {
        if (inRunTimeCode) probeSingleStatement(node.body, 'branch', depth + 1);
        break;
      }
      case 'LabeledStatement':
        // The body of a label keeps its position: wrapping a labelled loop in a block breaks `continue label`.
        break;
      case 'ConditionalExpression': {
        if (!inRunTimeCode) break;
        probeExpression(node.consequent, 'conditional', depth + 1);
        probeExpression(node.alternate, 'conditional', depth + 1);
        break;
      }
      case 'LogicalExpression': {
        if (inRunTimeCode) probeExpression(node.right, 'logical-right', depth + 1);
        break;
      }
      case 'ArrowFunctionExpression': {
        if (node.expression) probeExpression(node.body, 'arrow-body', depth + 1);
        break;
      }
      default:
        break;
    }
    if (LOOP_TYPES.has(node.type) && inRunTimeCode) {
      // A labelled loop keeps its label: only its body is wrapped, so `continue label` still targets the loop.
      probeSingleStatement(node.body, 'loop-body', depth + 1);
    }
  }

  // Top-level code of an entry script can run at definition time (static blocks, IIFEs); make the global exist.
  let prelude = '';
  let preludeAt = 0;
  if (parsed.form === 'entry') {
    prelude = `globalThis.${COVERAGE_GLOBAL} ??= [];`;
    const directives = (parsed.root.body as SyntaxNode[]).filter((s) => s.directive !== undefined);
    preludeAt = directives.length > 0 ? directives[directives.length - 1].end : 0;
    if (preludeAt === 0 && parsed.source.startsWith('#!')) preludeAt = parsed.source.indexOf('\n') + 1 || parsed.source.length;
    insertions.push({ pos: preludeAt, text: prelude, closing: false, depth: -1, seq: -1 });
  }

  // Number probes in source order (outer before inner) so ids read naturally in reports.
  const order = probes.map((probe) => probe.id).sort((a, b) => probes[a].start - probes[b].start || probes[b].end - probes[a].end);
  const renumber = new Map(order.map((oldId, newId) => [oldId, newId]));
  const pattern = new RegExp(`${COVERAGE_GLOBAL}\\[(\\d+)\\]`, 'g');
  for (const insertion of insertions) {
    insertion.text = insertion.text.replace(pattern, (_, id: string) => `${COVERAGE_GLOBAL}[${renumber.get(Number(id))}]`);
  }
  const numbered = order.map((oldId, newId) => ({ ...probes[oldId], id: newId }));

  insertions.sort(compareInsertions);
  const source = block.source;
  let out = '';
  let last = 0;
  for (const insertion of insertions) {
    out += source.slice(last, insertion.pos) + insertion.text;
    last = insertion.pos;
  }
  out += source.slice(last);

  const originalOffset = (instrumented: number): number => {
    // Walk the insertions: the original offset is the instrumented one minus everything inserted before it.
    let consumed = 0;
    for (let i = 0; i < insertions.length; i++) {
      const { pos, text } = insertions[i];
      if (instrumented < pos + consumed) break;
      if (instrumented < pos + consumed + text.length) return pos;
      consumed += text.length;
    }
    return Math.max(0, Math.min(source.length, instrumented - consumed));
  };

  return { block: { ...block, source: out }, probes: numbered, originalOffset };
}

function compareInsertions(a: Insertion, b: Insertion): number {
  if (a.pos !== b.pos) return a.pos - b.pos;
  if (a.closing !== b.closing) return a.closing ? -1 : 1;
  if (a.closing) return b.depth - a.depth || b.seq - a.seq;
  return a.depth - b.depth || a.seq - b.seq;
}
