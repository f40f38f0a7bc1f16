import type { Block, Edit } from '../../../core/types.ts';
import { parseBlock, type BlockForm, type EarlyError, SyntaxTree, isFunctionNode, type SyntaxNode } from '../../syntax/index.ts';
import { fitSlot, nodePrecedence, slotPrecedence } from './expression-precedence.ts';
import { editSize, type Mutation } from './mutation.ts';
import { ScopeAnalysis } from './scope-analysis.ts';
import { SourceText } from './source-text.ts';

/** What the failing run reported, when it threw. */
export interface ErrorInfo {
  name: string;
  message: string;
  /** 0-based offset into the block's source of the innermost frame. */
  offset?: number;
}

const MAX_SHOWN = 40;

/** The analysed original block that every mutation operator reads, and the sink they write mutations to. */
export class MutationContext {
  readonly form: BlockForm;
  readonly source: SourceText;
  readonly tree: SyntaxTree;
  readonly scopes: ScopeAnalysis;
  readonly mutations: Mutation[] = [];
  /** Early errors of the original (redeclarations and the like): it does not compile until they are gone. */
  readonly earlyErrors: EarlyError[];
  /** Nodes by type, in source order. */
  private readonly byType = new Map<string, SyntaxNode[]>();
  private readonly order = new Map<SyntaxNode, number>();

  constructor(readonly block: Block, readonly errorInfo?: ErrorInfo) {
    const parsed = parseBlock(block);
    this.form = parsed.form;
    this.earlyErrors = parsed.earlyErrors;
    this.source = new SourceText(block.source);
    this.tree = new SyntaxTree(parsed.root);
    this.scopes = new ScopeAnalysis(this.tree);
    this.tree.nodes.forEach((node, index) => this.order.set(node, index));
    for (const node of this.tree.nodes) {
      const list = this.byType.get(node.type) ?? [];
      list.push(node);
      this.byType.set(node.type, list);
    }
  }

  nodes(...types: string[]): SyntaxNode[] {
    if (types.length === 1) return this.byType.get(types[0]) ?? [];
    return types.flatMap((type) => this.byType.get(type) ?? []).sort((a, b) => a.start - b.start);
  }

  text(node: { start: number; end: number }): string {
    return this.source.slice(node);
  }

  /** The node's text with all whitespace removed, for comparing expressions written alike. */
  flatText(node: { start: number; end: number }): string {
    return this.text(node).replace(/\s+/g, '');
  }

  parent(node: SyntaxNode): SyntaxNode | null {
    return this.tree.parent(node);
  }

  key(node: SyntaxNode): string | null {
    return this.tree.info(node).key;
  }

  /** Code that runs when the function is called, as opposed to top-level script code. */
  inFunction(node: SyntaxNode): boolean {
    return this.tree.info(node).fn !== null || (this.form === 'expression');
  }

  /** Whether the expression's value is read (not a target of assignment, a declaration, or a key). */
  isRead(node: SyntaxNode): boolean {
    const info = this.tree.info(node);
    const parent = info.parent;
    if (!parent) return false;
    if (node.type === 'Identifier') return this.scopes.role(node) === 'read';
    switch (parent.type) {
      case 'AssignmentExpression': return info.key !== 'left';
      case 'UpdateExpression': return false;
      case 'ForInStatement':
      case 'ForOfStatement': return info.key !== 'left';
      case 'UnaryExpression': return parent.operator !== 'delete';
      case 'CallExpression':
      case 'NewExpression': return info.key !== 'callee';
      case 'TaggedTemplateExpression': return info.key !== 'tag';
      case 'MemberExpression': return info.key === 'object' || parent.computed;
      case 'ArrayPattern':
      case 'ObjectPattern':
      case 'AssignmentPattern':
      case 'RestElement':
      case 'VariableDeclarator': return info.key === 'init' || (parent.type === 'AssignmentPattern' && info.key === 'right');
      case 'Property': return info.key === 'value' && this.parent(parent)?.type === 'ObjectExpression';
      default: return true;
    }
  }

  /**
   * An edit replacing `node` with `text` (an expression of precedence `precedence`), parenthesised if the slot
   * needs it. Shorthand properties keep their key (`{ a }` → `{ a: b }`).
   */
  replaceNode(node: SyntaxNode, text: string, precedence: number): Edit {
    const info = this.tree.info(node);
    const parent = info.parent;
    if (parent?.type === 'Property' && parent.shorthand && info.key === 'value') {
      if (parent.value.type === 'AssignmentPattern') return { start: node.start, end: node.end, text };
      return { start: parent.start, end: parent.end, text: `${this.text(parent.key)}: ${text}` };
    }
    const slot = slotPrecedence(parent, info.key);
    let fitted = fitSlot(text, precedence, slot, this.source.isParenthesised(node));
    // `x - -1`, not `x--1`; `a + +b`, not `a++b`.
    const before = this.source.text[node.start - 1];
    if ((before === '-' || before === '+') && fitted[0] === before) fitted = ` ${fitted}`;
    if (fitted === text && parent?.type === 'ArrowFunctionExpression' && info.key === 'body' && text.startsWith('{')) fitted = `(${text})`;
    if (fitted === text && parent?.type === 'ExpressionStatement' && /^(\{|function\b|class\b|let\s*\[)/.test(text)) fitted = `(${text})`;
    return { start: node.start, end: node.end, text: fitted };
  }

  /** `text` of `node` made fit for a slot of precedence `slot` (for composing new expressions). */
  operand(node: SyntaxNode, slot: number): string {
    return fitSlot(this.text(node), nodePrecedence(node), slot, false);
  }

  position(offset: number): string {
    return this.source.position(offset);
  }

  describeReplace(start: number, oldText: string, newText: string): string {
    return `replace \`${shorten(oldText)}\` with \`${shorten(newText)}\` at ${this.position(start)}`;
  }

  add(operator: string, prior: number, anchor: { start: number; end: number }, edits: Edit[], description?: string, suspect?: boolean): Mutation | undefined {
    if (edits.length === 0) return undefined;
    const first = edits.reduce((a, b) => (a.start <= b.start ? a : b));
    const mutation: Mutation = {
      operator,
      edits,
      prior,
      description: description ?? this.describeReplace(first.start, this.source.text.slice(first.start, first.end), first.text),
      suspect: suspect || undefined,
      anchorStart: anchor.start,
      anchorEnd: anchor.end,
      size: editSize(edits),
    };
    this.mutations.push(mutation);
    return mutation;
  }

  /** Shorthand for a single-node replacement mutation. */
  addReplace(operator: string, prior: number, node: SyntaxNode, text: string, precedence: number, suspect?: boolean): Mutation | undefined {
    const edit = this.replaceNode(node, text, precedence);
    if (edit.text === this.text(node)) return undefined;
    return this.add(operator, prior, node, [edit], this.describeReplace(node.start, this.text(node), text), suspect);
  }

  /** The innermost statement (or class member) containing `node`. */
  statementOf(node: SyntaxNode): SyntaxNode | null {
    for (let current: SyntaxNode | null = node; current; current = this.parent(current)) {
      if (current.type.endsWith('Statement') || current.type === 'VariableDeclaration') return current;
      if (isFunctionNode(current) && current !== node) return null;
    }
    return null;
  }

  /** The innermost statement or declaration holding a source offset. */
  statementAt(offset: number): SyntaxNode | undefined {
    let found: SyntaxNode | undefined;
    for (const node of this.tree.nodes) {
      if (node.start > offset) break;
      if (offset < node.end && (node.type.endsWith('Statement') || node.type.endsWith('Declaration')) && node.type !== 'BlockStatement') found = node;
    }
    return found;
  }

  /** The innermost function containing `node` (the node itself excluded). */
  functionOf(node: SyntaxNode): SyntaxNode | null {
    return this.tree.info(node).fn;
  }

  /**
   * The node's range widened over parentheses that belong to it (`(a + b)` in `(a + b) * c`), staying inside
   * its parent so a call's or an array's own brackets are never taken.
   */
  outerRange(node: SyntaxNode): { start: number; end: number } {
    const parent = this.parent(node);
    const lower = parent ? parent.start : 0;
    const upper = parent ? parent.end : this.source.text.length;
    const text = this.source.text;
    let start = node.start;
    let end = node.end;
    for (;;) {
      let before = start - 1;
      while (before >= lower && /\s/.test(text[before])) before--;
      if (before < lower || text[before] !== '(') break;
      const after = this.source.skipTrivia(end, upper);
      if (after >= upper || text[after] !== ')') break;
      // A call's `(` sits right after its callee; an arrow's or a control statement's parenthesis is not ours either.
      if (parent && (parent.type === 'CallExpression' || parent.type === 'NewExpression') && (parent.arguments as SyntaxNode[]).length === 1) break;
      start = before;
      end = after + 1;
    }
    return { start, end };
  }

  /** Whether the subtree contains a node of one of the given types. */
  contains(node: SyntaxNode, predicate: (n: SyntaxNode) => boolean): boolean {
    const nodes = this.tree.nodes;
    let i = this.order.get(node) ?? -1;
    if (i < 0) return false;
    for (i++; i < nodes.length && nodes[i].start < node.end; i++) {
      if (nodes[i].end <= node.end && predicate(nodes[i])) return true;
    }
    return false;
  }
}

export function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN - 1)}…` : flat;
}
