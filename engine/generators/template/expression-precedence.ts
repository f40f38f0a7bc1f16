import type { SyntaxNode } from '../../syntax/index.ts';

/** Binding strength of expression forms; higher binds tighter. */
export const Precedence = {
  sequence: 1,
  assignment: 2,
  conditional: 3,
  nullish: 4,
  or: 5,
  and: 6,
  bitOr: 7,
  bitXor: 8,
  bitAnd: 9,
  equality: 10,
  relational: 11,
  shift: 12,
  additive: 13,
  multiplicative: 14,
  exponent: 15,
  unary: 16,
  postfix: 17,
  call: 18,
  primary: 19,
} as const;

const BINARY: Record<string, number> = {
  '??': Precedence.nullish, '||': Precedence.or, '&&': Precedence.and,
  '|': Precedence.bitOr, '^': Precedence.bitXor, '&': Precedence.bitAnd,
  '==': Precedence.equality, '!=': Precedence.equality, '===': Precedence.equality, '!==': Precedence.equality,
  '<': Precedence.relational, '<=': Precedence.relational, '>': Precedence.relational, '>=': Precedence.relational,
  in: Precedence.relational, instanceof: Precedence.relational,
  '<<': Precedence.shift, '>>': Precedence.shift, '>>>': Precedence.shift,
  '+': Precedence.additive, '-': Precedence.additive,
  '*': Precedence.multiplicative, '/': Precedence.multiplicative, '%': Precedence.multiplicative,
  '**': Precedence.exponent,
};

export function binaryPrecedence(operator: string): number {
  return BINARY[operator] ?? Precedence.primary;
}

export function nodePrecedence(node: SyntaxNode): number {
  switch (node.type) {
    case 'SequenceExpression': return Precedence.sequence;
    case 'AssignmentExpression':
    case 'ArrowFunctionExpression':
    case 'YieldExpression': return Precedence.assignment;
    case 'ConditionalExpression': return Precedence.conditional;
    case 'LogicalExpression':
    case 'BinaryExpression': return binaryPrecedence(node.operator);
    case 'UnaryExpression':
    case 'AwaitExpression': return Precedence.unary;
    case 'UpdateExpression': return node.prefix ? Precedence.unary : Precedence.postfix;
    case 'CallExpression':
    case 'MemberExpression':
    case 'ChainExpression':
    case 'TaggedTemplateExpression':
    case 'NewExpression': return Precedence.call;
    default: return Precedence.primary;
  }
}

/** The weakest expression that can stand in the node's slot without parentheses. */
export function slotPrecedence(parent: SyntaxNode | null, key: string | null): number {
  if (!parent) return Precedence.sequence;
  switch (parent.type) {
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const p = binaryPrecedence(parent.operator);
      // `??` cannot mix with `&&`/`||` unparenthesised; ask for a bitwise-or operand or tighter.
      if (parent.operator === '??') return Precedence.bitOr;
      if (parent.operator === '**') return key === 'left' ? Precedence.postfix : Precedence.exponent;
      return key === 'left' ? p : p + 1;
    }
    case 'UnaryExpression':
    case 'AwaitExpression': return Precedence.unary;
    case 'UpdateExpression': return Precedence.postfix;
    case 'MemberExpression': return key === 'object' ? Precedence.call : Precedence.sequence;
    case 'CallExpression': return key === 'callee' ? Precedence.call : Precedence.assignment;
    case 'NewExpression': return key === 'callee' ? Precedence.primary : Precedence.assignment;
    case 'TaggedTemplateExpression': return key === 'tag' ? Precedence.call : Precedence.sequence;
    case 'ConditionalExpression': return key === 'test' ? Precedence.nullish : Precedence.assignment;
    case 'SequenceExpression': return Precedence.assignment;
    case 'ExpressionStatement':
    case 'ReturnStatement':
    case 'ThrowStatement':
    case 'IfStatement':
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'SwitchStatement':
    case 'SwitchCase':
    case 'ForStatement':
    case 'TemplateLiteral': return Precedence.sequence;
    default: return Precedence.assignment;
  }
}

/** Wraps `text` (of precedence `precedence`) in parentheses unless it fits the slot as is. */
export function fitSlot(text: string, precedence: number, slot: number, parenthesised: boolean): string {
  return parenthesised || precedence >= slot ? text : `(${text})`;
}
