import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });
const typeError = (message: string, offset: number) => ({ errorInfo: { name: 'TypeError', message, offset } });

test('a date that arrived as a string is converted where a Date method throws', () => {
  const age = `function ageInDays(account, now) {\n  return Math.floor((now - account.createdAt.getTime()) / 86400000);\n}`;
  const options = typeError('account.createdAt.getTime is not a function', age.indexOf('getTime'));
  const c = foundWithin(entry(age, 'ageInDays'), age.replace('account.createdAt.getTime()', 'new Date(account.createdAt).getTime()'), 5, options);
  assert.equal(c.generator, 'template:coercion');
  const price = `(item) => item.price.toFixed(2)`;
  foundWithin({ source: price }, `(item) => Number(item.price).toFixed(2)`, 5, typeError('item.price.toFixed is not a function', price.indexOf('toFixed')));
  const byId = `(index) => index.map((e) => e.id)`;
  foundWithin({ source: byId }, `(index) => Object.values(index).map((e) => e.id)`, 6, typeError('index.map is not a function', byId.indexOf('map')));
  // A computed receiver is named `(intermediate value)` by V8: the method's name finds the call.
  const computed = `(rows) => rows[0].at.getTime()`;
  foundWithin({ source: computed }, `(rows) => new Date(rows[0].at).getTime()`, 6, typeError('(intermediate value).getTime is not a function', computed.indexOf('getTime')));
});

test('reduce over an empty list starts from the identity of its operation', () => {
  const total = `function total(lines) {\n  return lines.map((l) => l.cents).reduce((a, b) => a + b);\n}`;
  const message = 'Reduce of empty array with no initial value';
  const c = foundWithin(entry(total, 'total'), total.replace('a + b)', 'a + b, 0)'), 3, typeError(message, total.indexOf('reduce')));
  assert.equal(c.generator, 'template:reduce-initial');
  const product = `(xs) => xs.reduce((a, b) => a * b)`;
  foundWithin({ source: product }, `(xs) => xs.reduce((a, b) => a * b, 1)`, 3, typeError(message, product.indexOf('reduce')));
  const names = `(xs) => xs.reduce((acc, x) => acc + ', ' + x)`;
  foundWithin({ source: names }, `(xs) => xs.reduce((acc, x) => acc + ', ' + x, '')`, 3, typeError(message, names.indexOf('reduce')));
  const peak = `(xs) => xs.reduce((m, x) => Math.max(m, x))`;
  foundWithin({ source: peak }, `(xs) => xs.reduce((m, x) => Math.max(m, x), -Infinity)`, 3, typeError(message, peak.indexOf('reduce')));
  const merged = `(parts) => parts.reduce((all, p) => ({ ...all, ...p }))`;
  foundWithin({ source: merged }, `(parts) => parts.reduce((all, p) => ({ ...all, ...p }), {})`, 3, typeError(message, merged.indexOf('reduce')));
});

test('optional chaining at every level of the chain, not one level short', () => {
  const city = `(order) => order.customer.address.city.toUpperCase()`;
  const options = typeError("Cannot read properties of undefined (reading 'city')", city.indexOf('city'));
  const all = foundWithin({ source: city }, `(order) => order?.customer?.address?.city?.toUpperCase()`, 8, options);
  assert.equal(all.generator, 'template:optional-chain-all');
  foundWithin({ source: city }, `(order) => order.customer.address?.city?.toUpperCase()`, 8, options);
  // The single level is still there, first.
  foundWithin({ source: city }, `(order) => order.customer.address?.city.toUpperCase()`, 1, options);
  // A one-level read has no chain to extend.
  const one = `(u) => u.name`;
  const mutations = collectMutations({ source: one }, { name: 'TypeError', message: "Cannot read properties of undefined (reading 'name')", offset: 7 });
  assert.ok(!mutations.some((m) => m.operator === 'optional-chain-all'));
});

test('a fallback the block applies in one place is reused where the same value is read without it', () => {
  const greet = `function greeting(user, messages, formats) {\n  const text = messages[user.locale || 'en'];\n  return text + ' ' + formats[user.locale].date;\n}`;
  const fixed = greet.replace('formats[user.locale]', "formats[user.locale || 'en']");
  const c = foundWithin(entry(greet, 'greeting'), fixed, 300, { template: { pairs: false } });
  assert.equal(c.generator, 'template:reused-default');
  // The same property of another object gets it too.
  const other = `function pick(account, org) {\n  const tz = account.timezone ?? 'UTC';\n  return [tz, org.timezone];\n}`;
  foundWithin(entry(other, 'pick'), other.replace('org.timezone]', "org.timezone ?? 'UTC']"), 300, { template: { pairs: false } });
});

test('a lookup that misses falls back to the entry the block names elsewhere', () => {
  const seats = `function seatLimit(account) {\n  if (account.trial) return PLANS.free.seats;\n  return PLANS[account.plan].seats;\n}`;
  const fixed = seats.replace('PLANS[account.plan].seats', '(PLANS[account.plan] ?? PLANS.free).seats');
  const c = foundWithin(entry(seats, 'seatLimit'), fixed, 300, { template: { pairs: false } });
  assert.equal(c.generator, 'template:lookup-fallback');
});

test('a part of a template or an object built from a missing value is left out', () => {
  const name = 'function label(p) {\n  return `${p.first} ${p.middle} ${p.last}`;\n}';
  const fixed = 'function label(p) {\n  return `${p.first}${p.middle != null ? ` ${p.middle}` : \'\'} ${p.last}`;\n}';
  const c = foundWithin(entry(name, 'label'), fixed, 400, { template: { pairs: false } });
  assert.equal(c.generator, 'template:skip-absent-part');
  foundWithin(entry(name, 'label'), name.replace('${p.middle}', "${p.middle ?? ''}"), 400, { template: { pairs: false } });
  const row = `function toJson(row) {\n  return { id: row.id, note: row.meta.note };\n}`;
  foundWithin(entry(row, 'toJson'), row.replace('note: row.meta.note', '...(row.meta?.note !== undefined && { note: row.meta.note })'), 400, { template: { pairs: false } });
  // One-part templates and tagged templates are left alone.
  const one = 'function f(x) { return `id ${x.id}` + tag`${x.a} ${x.b}`; }';
  assert.ok(!collectMutations(entry(one)).some((m) => m.operator === 'skip-absent-part' && m.edits[0].text.includes('?')));
});

test("a declared table's default-looking entry is a lookup's fallback", () => {
  const rate = `const RATES = { de: 0.19, fr: 0.2, default: 0 };\nfunction vat(country, cents) {\n  return Math.round(cents * RATES[country]);\n}`;
  foundWithin(entry(rate, 'vat'), rate.replace('RATES[country]', '(RATES[country] ?? RATES.default)'), 300, { template: { pairs: false } });
  const none = `const RATES = { de: 0.19, fr: 0.2 };\nfunction vat(country, cents) {\n  return Math.round(cents * RATES[country]);\n}`;
  assert.ok(!collectMutations(entry(none, 'vat')).some((m) => m.operator === 'lookup-fallback'));
  // A list or a string read for its length is no table whose `length` entry is a fallback.
  const scan = `function lastDigit(text) {\n  for (let i = text.length - 1; i >= 0; i--) if (text[i] >= '0' && text[i] <= '9') return i;\n  return text.length;\n}`;
  assert.ok(!collectMutations(entry(scan, 'lastDigit')).some((m) => m.operator === 'lookup-fallback'));
});
