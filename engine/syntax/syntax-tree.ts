/** An ESTree node as acorn produces it; properties are read by node type. */
export interface SyntaxNode {
  type: string;
  start: number;
  end: number;
  [key: string]: any;
}

export interface NodeInfo {
  node: SyntaxNode;
  parent: SyntaxNode | null;
  /** The parent's property holding this node (`left`, `body`, `arguments`, ...). */
  key: string | null;
  /** Position inside the parent's array property, or -1. */
  index: number;
  depth: number;
  /** Innermost function strictly enclosing the node (a function's params and body see the function itself). */
  fn: SyntaxNode | null;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

export function isFunctionNode(node: SyntaxNode): boolean {
  return FUNCTION_TYPES.has(node.type);
}

/** Keys that never hold child nodes; skipping them keeps the walk cheap. */
const LEAF_KEYS = new Set(['type', 'start', 'end', 'loc', 'range', 'raw', 'regex', 'bigint', 'name', 'operator',
  'prefix', 'computed', 'optional', 'kind', 'method', 'shorthand', 'static', 'async', 'generator',
  'directive', 'sourceType', 'delegate', 'tail']);

/** Child nodes in source order, with the key (and index) that holds each. */
export function childEntries(node: SyntaxNode): Array<{ key: string; index: number; child: SyntaxNode }> {
  const out: Array<{ key: string; index: number; child: SyntaxNode }> = [];
  for (const key of Object.keys(node)) {
    if (LEAF_KEYS.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (item && typeof item.type === 'string') out.push({ key, index, child: item });
      });
    } else if (value && typeof value === 'object' && typeof value.type === 'string') {
      out.push({ key, index: -1, child: value });
    }
  }
  // Acorn's key order is source order for nearly every node; TemplateLiteral (quasis before expressions) is not.
  out.sort((a, b) => a.child.start - b.child.start || b.child.end - a.child.end);
  return out;
}

/** A parsed tree indexed for parent lookups; `nodes` is in pre-order (source order, outer before inner). */
export class SyntaxTree {
  readonly nodes: SyntaxNode[] = [];
  private readonly infos = new Map<SyntaxNode, NodeInfo>();

  constructor(readonly root: SyntaxNode) {
    const stack: NodeInfo[] = [{ node: root, parent: null, key: null, index: -1, depth: 0, fn: null }];
    while (stack.length > 0) {
      const info = stack.pop()!;
      if (this.infos.has(info.node)) continue;
      this.infos.set(info.node, info);
      this.nodes.push(info.node);
      const fn = isFunctionNode(info.node) ? info.node : info.fn;
      const children = childEntries(info.node);
      for (let i = children.length - 1; i >= 0; i--) {
        const { key, index, child } = children[i];
        stack.push({ node: child, parent: info.node, key, index, depth: info.depth + 1, fn });
      }
    }
  }

  info(node: SyntaxNode): NodeInfo {
    const info = this.infos.get(node);
    if (!info) throw new Error(`node ${node.type}@${node.start} is not in this tree`);
    return info;
  }

  parent(node: SyntaxNode): SyntaxNode | null {
    return this.infos.get(node)?.parent ?? null;
  }

  /** Ancestors from the parent outwards. */
  *ancestors(node: SyntaxNode): Generator<SyntaxNode> {
    let current = this.parent(node);
    while (current) {
      yield current;
      current = this.parent(current);
    }
  }
}
