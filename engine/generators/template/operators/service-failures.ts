/**
 * Fixes for the failures service code has with data it does not control, learned from what the block itself
 * says about its data.
 *
 * - A fallback the block applies in one place is missing in another. Example: `messages[user.locale || 'en']`
 *   next to `formats[user.locale]`: the second lookup gets `|| 'en'` too (`reused-default`). The fallback is
 *   reused for the same expression, for a read of the same property of another object (`account.locale`), and
 *   for the key of a lookup in a table that some other read of the block indexes with a literal key.
 * - A lookup in a table misses and the code reads on from `undefined`: `PLANS[account.plan].seats` falls back
 *   to an entry the block names elsewhere (`PLANS.free`), to a default-looking entry of a table the block
 *   declares (`default`, `free`, `ROW`, ...) or to the fallback key the block uses
 *   (`PLANS[account.plan] ?? PLANS.free`, `lookup-fallback`).
 * - A part of a template string or an object literal built from an absent value prints `undefined` (or
 *   `null`): `${first} ${middle} ${last}` → `${first}${middle != null ? ` ${middle}` : ''} ${last}`, the part
 *   left out with its separator, or the value defaulted to `''`; `{ id, note: row.note }` →
 *   `{ id, ...(row.note !== undefined && { note: row.note }) }` (`skip-absent-part`).
 */
import type { SyntaxNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

const MAX_SITES = 12;
const MAX_TEMPLATE_PARTS = 6;

export function serviceFailures(ctx: MutationContext): void {
  reusedDefaults(ctx);
  lookupFallbacks(ctx);
  skipAbsentParts(ctx);
}

interface Fallback {
  operator: '||' | '??';
  /** Source text of the fallback value. */
  value: string;
  /** The defaulted expression, whitespace removed. */
  expression: string;
  /** Its last property name, for reads of the same property of another object. */
  property?: string;
}

const isLiteralValue = (n: SyntaxNode): boolean =>
  (n.type === 'Literal' && n.regex === undefined) || (n.type === 'TemplateLiteral' && n.expressions.length === 0) ||
  (n.type === 'ArrayExpression' && n.elements.length === 0) || (n.type === 'ObjectExpression' && n.properties.length === 0);

function fallbacks(ctx: MutationContext): Fallback[] {
  const out: Fallback[] = [];
  for (const node of ctx.nodes('LogicalExpression')) {
    if ((node.operator !== '||' && node.operator !== '??') || !isLiteralValue(node.right)) continue;
    const left = node.left;
    if (left.type !== 'Identifier' && left.type !== 'MemberExpression') continue;
    const property = left.type === 'MemberExpression' && !left.computed ? (left.property.name as string) : undefined;
    out.push({ operator: node.operator, value: ctx.text(node.right), expression: ctx.flatText(left), property });
  }
  return out;
}

/** Whether `node`'s value is already given a fallback where it stands. */
function defaulted(ctx: MutationContext, node: SyntaxNode): boolean {
  const parent = ctx.parent(node);
  return parent?.type === 'LogicalExpression' && ctx.key(node) === 'left' && (parent.operator === '||' || parent.operator === '??');
}

function reusedDefaults(ctx: MutationContext): void {
  const known = fallbacks(ctx);
  if (known.length === 0) return;
  let sites = 0;
  for (const node of ctx.nodes('Identifier', 'MemberExpression')) {
    if (sites >= MAX_SITES) break;
    if (!ctx.isRead(node) || !ctx.inFunction(node) || defaulted(ctx, node)) continue;
    const parent = ctx.parent(node);
    if (parent?.type === 'CallExpression' && ctx.key(node) === 'callee') continue;
    if (node.type === 'Identifier' && parent?.type === 'MemberExpression' && ctx.key(node) === 'object') continue;
    const text = ctx.flatText(node);
    const property = node.type === 'MemberExpression' && !node.computed ? (node.property.name as string) : undefined;
    const matches = known.filter((f) => f.expression === text || (property !== undefined && f.property === property));
    if (matches.length === 0) continue;
    sites++;
    const seen = new Set<string>();
    for (const f of matches) {
      const key = `${f.operator}${f.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const slot = f.operator === '??' ? Precedence.bitOr : Precedence.or;
      ctx.addReplace('reused-default', PRIORS.reusedDefault - (f.expression === text ? 0 : 0.05), node,
        `${ctx.operand(node, slot)} ${f.operator} ${f.value}`, f.operator === '??' ? Precedence.nullish : Precedence.or);
    }
  }
}

/** Names of the entries a table keeps for whatever has no entry of its own. */
const DEFAULT_KEY = /^(default|fallback|others?|rest|row|world|intl|unknown|free|basic|standard|generic|any|\*)$/i;

/**
 * Whether `key` names a property every list, string, map or plain object has (`length`, `size`, ...): reading
 * `word.length` makes `word` no lookup table with a `length` entry, and `word[i] ?? word.length` no fallback.
 */
const builtInProperty = (key: string): boolean =>
  key in Array.prototype || key in String.prototype || key in Map.prototype || key in Object.prototype;

/**
 * Literal keys each table (an identifier or member path) is read with (`PLANS.free`, `RATES['eu']`; never a
 * built-in property such as `length`), and the default-looking keys (`default`, `free`, `ROW`, ...) of tables
 * the block declares as object literals.
 */
function literalKeys(ctx: MutationContext): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const declarator of ctx.nodes('VariableDeclarator')) {
    if (declarator.id.type !== 'Identifier' || declarator.init?.type !== 'ObjectExpression') continue;
    const names = (declarator.init.properties as SyntaxNode[]).flatMap((p) => {
      if (p.type !== 'Property' || p.computed) return [];
      const name = p.key.type === 'Identifier' ? p.key.name : p.key.value;
      return typeof name === 'string' && DEFAULT_KEY.test(name) ? [name] : [];
    });
    if (names.length > 0) keys.set(declarator.id.name, names);
  }
  for (const m of ctx.nodes('MemberExpression')) {
    const key = m.computed ? (m.property.type === 'Literal' && typeof m.property.value === 'string' ? m.property.value : undefined) : (m.property.name as string);
    if (key === undefined || builtInProperty(key) || !ctx.isRead(m)) continue;
    const table = ctx.flatText(m.object);
    const list = keys.get(table) ?? [];
    if (!list.includes(key)) list.push(key);
    keys.set(table, list);
  }
  return keys;
}

function lookupFallbacks(ctx: MutationContext): void {
  const keys = literalKeys(ctx);
  const values = fallbacks(ctx).filter((f) => /^['"`]/.test(f.value)).map((f) => f.value);
  let sites = 0;
  for (const lookup of ctx.nodes('MemberExpression')) {
    if (sites >= MAX_SITES) break;
    if (!lookup.computed || lookup.property.type === 'Literal' || !ctx.isRead(lookup) || !ctx.inFunction(lookup) || defaulted(ctx, lookup)) continue;
    if (lookup.object.type !== 'Identifier' && lookup.object.type !== 'MemberExpression') continue;
    const table = ctx.text(lookup.object);
    const alternatives = new Set<string>();
    for (const key of (keys.get(ctx.flatText(lookup.object)) ?? []).slice(0, 3)) alternatives.add(/^[A-Za-z_$][\w$]*$/.test(key) ? `${table}.${key}` : `${table}[${JSON.stringify(key)}]`);
    for (const value of values.slice(0, 3)) alternatives.add(`${table}[${value}]`);
    if (alternatives.size === 0) continue;
    sites++;
    for (const alternative of alternatives) {
      ctx.addReplace('lookup-fallback', PRIORS.reusedDefault, lookup, `${ctx.operand(lookup, Precedence.bitOr)} ?? ${alternative}`, Precedence.nullish);
      // Defaulting the key instead: `TABLE[key || 'en']`, when the fallback is a key.
      if (alternative.startsWith(`${table}[`)) {
        const value = alternative.slice(table.length + 1, -1);
        ctx.addReplace('lookup-fallback', PRIORS.reusedDefault - 0.02, lookup.property, `${ctx.operand(lookup.property, Precedence.or)} || ${value}`, Precedence.or);
      }
    }
  }
}

/** `a.b.c` as a test that does not throw when a level is missing: `a.b?.c`. */
function safeTest(ctx: MutationContext, node: SyntaxNode): string {
  if (node.type !== 'MemberExpression') return ctx.text(node);
  const inner = node.object.type === 'MemberExpression' ? safeTest(ctx, node.object) : ctx.text(node.object);
  const joint = node.object.type === 'MemberExpression' ? '?.' : '.';
  return node.computed ? `${inner}${joint === '.' ? '' : '?.'}[${ctx.text(node.property)}]` : `${inner}${joint}${node.property.name}`;
}

function skipAbsentParts(ctx: MutationContext): void {
  let parts = 0;
  for (const template of ctx.nodes('TemplateLiteral')) {
    if (template.expressions.length < 2 || !ctx.inFunction(template) || ctx.parent(template)?.type === 'TaggedTemplateExpression') continue;
    template.expressions.forEach((expression: SyntaxNode, i: number) => {
      if (parts >= MAX_TEMPLATE_PARTS || (expression.type !== 'Identifier' && expression.type !== 'MemberExpression')) return;
      parts++;
      const before = template.quasis[i];
      const after = template.quasis[i + 1];
      const text = ctx.text(expression);
      const test = `${safeTest(ctx, expression)} != null`;
      // `${x}` with the separator before it (or, at the start, after it) moved inside the conditional part.
      const separatorBefore = /[ ,;:/|·-]+$/.exec(before.value.raw as string)?.[0];
      const separatorAfter = /^[ ,;:/|·-]+/.exec(after.value.raw as string)?.[0];
      const describe = (what: string) => `${what} \`${text}\` when it is missing at ${ctx.position(expression.start)}`;
      // A quasi's range excludes the `${` after it and the `}` before it.
      if (separatorBefore && (i > 0 || !separatorAfter)) {
        const start = before.end - separatorBefore.length;
        ctx.add('skip-absent-part', PRIORS.templatePartSkip, expression, [{ start, end: after.start, text: `\${${test} ? \`${separatorBefore}\${${text}}\` : ''}` }],
          describe('leave out the part built from'));
      } else if (separatorAfter) {
        const end = after.start + separatorAfter.length;
        ctx.add('skip-absent-part', PRIORS.templatePartSkip, expression, [{ start: before.end, end, text: `\${${test} ? \`\${${text}}${separatorAfter}\` : ''}` }],
          describe('leave out the part built from'));
      }
      ctx.addReplace('skip-absent-part', PRIORS.templatePartSkip - 0.02, expression, `${ctx.operand(expression, Precedence.bitOr)} ?? ''`, Precedence.nullish);
    });
  }
  for (const object of ctx.nodes('ObjectExpression')) {
    if (!ctx.inFunction(object)) continue;
    for (const property of object.properties as SyntaxNode[]) {
      if (parts >= MAX_TEMPLATE_PARTS * 2) return;
      if (property.type !== 'Property' || property.kind !== 'init' || property.computed || property.method || property.value.type !== 'MemberExpression') continue;
      parts++;
      const value = ctx.text(property.value);
      ctx.add('skip-absent-part', PRIORS.templatePartSkip, property, [{ start: property.start, end: property.end,
        text: `...(${safeTest(ctx, property.value)} !== undefined && { ${ctx.text(property)} })` }],
      `leave out \`${ctx.text(property.key)}\` when \`${value}\` is missing at ${ctx.position(property.start)}`);
    }
  }
}
