import { isFunctionNode, type SyntaxNode, type SyntaxTree } from '../../syntax/index.ts';

export type BindingKind = 'var' | 'let' | 'const' | 'param' | 'function' | 'class' | 'catch';

export interface Binding {
  name: string;
  kind: BindingKind;
  /** The declaring identifier. */
  id: SyntaxNode;
  /** The scope node the binding lives in. */
  scope: SyntaxNode;
}

/** How an identifier is used where it stands. */
export type IdentifierRole = 'read' | 'write' | 'callee' | 'decl' | 'property' | 'label';

const SCOPE_TYPES = new Set(['Program', 'FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression',
  'BlockStatement', 'ForStatement', 'ForInStatement', 'ForOfStatement', 'CatchClause', 'SwitchStatement', 'StaticBlock']);

/** Lexical scopes of a block: which names are declared where, and which are visible at a node. */
export class ScopeAnalysis {
  private readonly own = new Map<SyntaxNode, Binding[]>();
  private readonly visible = new Map<SyntaxNode, Map<string, Binding>>();
  private readonly declared = new Set<SyntaxNode>();
  private readonly assignedPatterns = new Set<SyntaxNode>();
  /** Every name the block declares anywhere (names not in here are globals). */
  readonly declaredNames = new Set<string>();

  constructor(private readonly tree: SyntaxTree) {
    for (const node of tree.nodes) this.collect(node);
  }

  isScope(node: SyntaxNode): boolean {
    return SCOPE_TYPES.has(node.type);
  }

  /** Bindings visible at `node` (inner declarations shadow outer ones). */
  visibleAt(node: SyntaxNode): Map<string, Binding> {
    let scope: SyntaxNode | null = node;
    while (scope && !this.isScope(scope)) scope = this.tree.parent(scope);
    return scope ? this.visibleIn(scope) : new Map();
  }

  /** The binding an identifier refers to, if the block declares it. */
  resolve(identifier: SyntaxNode): Binding | undefined {
    return this.visibleAt(identifier).get(identifier.name);
  }

  role(identifier: SyntaxNode): IdentifierRole {
    if (this.declared.has(identifier)) return 'decl';
    const info = this.tree.info(identifier);
    const parent = info.parent;
    if (!parent) return 'read';
    switch (parent.type) {
      case 'MemberExpression':
        if (info.key === 'property' && !parent.computed) return 'property';
        break;
      case 'Property':
      case 'MethodDefinition':
      case 'PropertyDefinition':
        if (info.key === 'key' && !parent.computed) return 'property';
        if (info.key === 'value' && this.assignedPatterns.has(identifier)) return 'write';
        break;
      case 'MetaProperty':
        return 'property';
      case 'LabeledStatement':
      case 'BreakStatement':
      case 'ContinueStatement':
        return 'label';
      case 'AssignmentExpression':
        if (info.key === 'left') return 'write';
        break;
      case 'UpdateExpression':
        return 'write';
      case 'ForInStatement':
      case 'ForOfStatement':
        if (info.key === 'left') return 'write';
        break;
      case 'CallExpression':
      case 'NewExpression':
        if (info.key === 'callee') return 'callee';
        break;
      default:
        if (this.assignedPatterns.has(identifier)) return 'write';
    }
    return 'read';
  }

  private visibleIn(scope: SyntaxNode): Map<string, Binding> {
    const cached = this.visible.get(scope);
    if (cached) return cached;
    let outer: SyntaxNode | null = this.tree.parent(scope);
    while (outer && !this.isScope(outer)) outer = this.tree.parent(outer);
    const map = new Map(outer ? this.visibleIn(outer) : undefined);
    for (const binding of this.own.get(scope) ?? []) map.set(binding.name, binding);
    this.visible.set(scope, map);
    return map;
  }

  private bind(scope: SyntaxNode, id: SyntaxNode, kind: BindingKind): void {
    this.declared.add(id);
    this.declaredNames.add(id.name);
    const list = this.own.get(scope) ?? [];
    list.push({ name: id.name, kind, id, scope });
    this.own.set(scope, list);
  }

  private enclosing(node: SyntaxNode, functionOnly: boolean): SyntaxNode {
    let current = this.tree.parent(node);
    while (current) {
      if (functionOnly ? isFunctionNode(current) || current.type === 'Program' || current.type === 'StaticBlock' : this.isScope(current)) return current;
      current = this.tree.parent(current);
    }
    return this.tree.root;
  }

  private collect(node: SyntaxNode): void {
    switch (node.type) {
      case 'VariableDeclaration': {
        const kind = node.kind === 'var' ? 'var' : node.kind === 'const' ? 'const' : 'let';
        const scope = this.enclosing(node, kind === 'var');
        for (const declarator of node.declarations as SyntaxNode[]) {
          for (const id of patternIdentifiers(declarator.id)) this.bind(scope, id, kind);
        }
        break;
      }
      case 'FunctionDeclaration':
        if (node.id) this.bind(this.enclosing(node, false), node.id, 'function');
        this.bindParams(node);
        break;
      case 'FunctionExpression':
        if (node.id) this.bind(node, node.id, 'function');
        this.bindParams(node);
        break;
      case 'ArrowFunctionExpression':
        this.bindParams(node);
        break;
      case 'ClassDeclaration':
        if (node.id) this.bind(this.enclosing(node, false), node.id, 'class');
        break;
      case 'ClassExpression':
        if (node.id) this.declared.add(node.id);
        break;
      case 'CatchClause':
        if (node.param) for (const id of patternIdentifiers(node.param)) this.bind(node, id, 'catch');
        break;
      case 'AssignmentExpression':
      case 'ForInStatement':
      case 'ForOfStatement': {
        const target = node.left as SyntaxNode;
        if (target.type === 'ObjectPattern' || target.type === 'ArrayPattern') {
          for (const id of patternIdentifiers(target)) this.assignedPatterns.add(id);
        }
        break;
      }
      default:
        break;
    }
  }

  private bindParams(fn: SyntaxNode): void {
    for (const param of fn.params as SyntaxNode[]) for (const id of patternIdentifiers(param)) this.bind(fn, id, 'param');
  }
}

/** Identifiers a binding pattern declares. */
export function patternIdentifiers(pattern: SyntaxNode | null): SyntaxNode[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier': return [pattern];
    case 'ObjectPattern':
      return (pattern.properties as SyntaxNode[]).flatMap((p) => patternIdentifiers(p.type === 'RestElement' ? p.argument : p.value));
    case 'ArrayPattern': return (pattern.elements as Array<SyntaxNode | null>).flatMap((e) => patternIdentifiers(e));
    case 'AssignmentPattern': return patternIdentifiers(pattern.left);
    case 'RestElement': return patternIdentifiers(pattern.argument);
    default: return [];
  }
}
