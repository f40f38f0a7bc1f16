import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin, rankOf } from './candidate-rank.ts';

const typeError = (message: string, offset: number) => ({ name: 'TypeError', message, offset });
const readError = (property: string, source: string, at: string) => typeError(`Cannot read properties of undefined (reading '${property}')`, source.indexOf(at));

test('key normalisation: a lookup that missed gets its key in the case every key of the declared table has', () => {
  const source = `function vat(country) {\n  const RATES = { DE: { rate: 19 }, FR: { rate: 20 }, IT: { rate: 22 } };\n  const entry = RATES[country];\n  return entry.rate;\n}`;
  const errorInfo = readError('rate', source, 'entry.rate');
  const fixed = source.replace('RATES[country]', 'RATES[country.toUpperCase()]');
  const c = foundWithin({ source, entry: 'vat' }, fixed, 3, { errorInfo });
  assert.equal(c.generator, 'template:key-normalisation');
  const ops = collectMutations({ source, entry: 'vat' }, errorInfo).filter((m) => m.operator === 'key-normalisation');
  assert.deepEqual(ops.map((m) => m.edits[0].text), ['country.toUpperCase()'], 'only the case the keys share');
  // A table the block does not declare (a module constant passed in uses): every form, at a lower prior.
  const outside = `function vat(country) {\n  return RATES[country].rate;\n}`;
  const forms = collectMutations({ source: outside, entry: 'vat', uses: ['RATES'] }, readError('rate', outside, 'rate;')).filter((m) => m.operator === 'key-normalisation');
  assert.deepEqual(forms.map((m) => m.edits[0].text), ['country.toUpperCase()', 'country.toLowerCase()', 'country.trim()']);
  assert.ok(forms.every((m) => m.prior < ops[0].prior));
});

test('local default: a later read of a value the block keeps defaulted reads the variable, before optional chaining there', () => {
  const source = `function banner(user, copy) {\n  const tier = user.tier || 'basic';\n  const title = copy.titles[tier];\n  const colour = copy.colours[user.tier].main;\n  return { title, colour };\n}`;
  const errorInfo = readError('main', source, '.main');
  const fixed = source.replace('copy.colours[user.tier]', 'copy.colours[tier]');
  const { rank, candidate } = rankOf({ source, entry: 'banner' }, fixed, { errorInfo });
  const chained = rankOf({ source, entry: 'banner' }, source.replace('].main', ']?.main'), { errorInfo });
  assert.equal(candidate?.generator, 'template:local-default');
  assert.ok(rank !== undefined && chained.rank !== undefined && rank < chained.rank, `local default ${rank}, optional chain ${chained.rank}`);
  // Never the read inside the defaulting expression itself, nor a read before the variable exists.
  const texts = collectMutations({ source, entry: 'banner' }, errorInfo).filter((m) => m.operator === 'local-default').map((m) => m.edits[0].start);
  assert.deepEqual(texts, [source.indexOf('user.tier]')]);
});

test('sibling fallback: a printed field of a missing object falls back to the same field of its parent', () => {
  const source = '(ticket) => `Assigned to ${ticket.owner.team.label} (${ticket.owner.email})`';
  const errorInfo = readError('label', source, 'label');
  const fixed = '(ticket) => `Assigned to ${ticket.owner.team?.label ?? ticket.owner.label} (${ticket.owner.email})`';
  const c = foundWithin({ source }, fixed, 8, { errorInfo });
  assert.equal(c.generator, 'template:sibling-fallback');
  // The parent's other fields the block reads are offered too.
  foundWithin({ source }, '(ticket) => `Assigned to ${ticket.owner.team?.label ?? ticket.owner.email} (${ticket.owner.email})`', 20, { errorInfo });
  // Not printed: no sibling fallback (a number computed from a missing object is another matter).
  const total = '(o) => o.customer.discount.rate * 2';
  assert.equal(collectMutations({ source: total }, readError('rate', total, 'rate')).filter((m) => m.operator === 'sibling-fallback').length, 0);
});

test('receiver arrow: a function callback that lost the receiver becomes an arrow, and null safety on its this is suspect', () => {
  const source = 'function () {\n  let sum = 0;\n  this.items.forEach(function (item) {\n    sum += item.price * this.rate;\n  });\n  return sum;\n}';
  const errorInfo = readError('rate', source, 'this.rate');
  const arrow = source.replace('function (item) {', '(item) => {');
  const c = foundWithin({ source }, arrow, 3, { errorInfo });
  assert.equal(c.generator, 'template:receiver-arrow');
  foundWithin({ source }, source.replace('\n  });', '\n  }, this);'), 3, { errorInfo });
  const mutations = collectMutations({ source }, errorInfo);
  const masking = mutations.filter((m) => m.edits.some((e) => e.text.includes('this?.')));
  assert.ok(masking.length > 0 && masking.every((m) => m.suspect), 'this?.rate hides the lost receiver');
  // A callback whose outer function never reads this: nothing lost, no arrow proposed.
  const plain = 'function (items) {\n  return items.map(function (x) { return this.k * x; });\n}';
  assert.equal(collectMutations({ source: plain }, readError('k', plain, 'this.k')).filter((m) => m.operator === 'receiver-arrow').length, 0);
});

test('skip missing: a filter before the map whose callback threw on an element, by the lookup it makes', () => {
  const source = '(post, users) => post.likes.map((id) => users[id].name.toUpperCase()).join(", ")';
  const errorInfo = readError('name', source, '.name');
  const c = foundWithin({ source }, '(post, users) => post.likes.filter((id) => users[id] != null).map((id) => users[id].name.toUpperCase()).join(", ")', 40, { errorInfo });
  assert.equal(c.generator, 'template:skip-missing');
  foundWithin({ source }, '(post, users) => post.likes.filter((id) => id != null).map((id) => users[id].name.toUpperCase()).join(", ")', 40, { errorInfo });
});

test('optional call with a default: a method called on a missing value whose result is destructured', () => {
  const source = '(line) => {\n  const [key, value] = line.comment.split("=");\n  return { key, value };\n}';
  const errorInfo = readError('split', source, '.split');
  const c = foundWithin({ source }, '(line) => {\n  const [key, value] = line.comment?.split("=") ?? [];\n  return { key, value };\n}', 8, { errorInfo });
  assert.equal(c.generator, 'template:optional-call-default');
});

test('a method of a built-in type missing on a value: the conversion before the optional call, which is suspect', () => {
  const source = '(rows) => rows.sort((a, b) => a.sku.localeCompare(b.sku))';
  const errorInfo = typeError('a.sku.localeCompare is not a function', source.indexOf('localeCompare'));
  const converted = rankOf({ source }, '(rows) => rows.sort((a, b) => String(a.sku).localeCompare(b.sku))', { errorInfo });
  const optional = rankOf({ source }, '(rows) => rows.sort((a, b) => a.sku.localeCompare?.(b.sku))', { errorInfo });
  assert.ok(converted.rank !== undefined && optional.rank !== undefined && converted.rank < optional.rank, `${converted.rank} < ${optional.rank}`);
  assert.equal(optional.candidate?.suspect, true);
  // A method of the app's own objects: `?.()` is an ordinary fix, not suspect.
  const own = '(job) => job.onDone(job.result)';
  const call = collectMutations({ source: own }, typeError('job.onDone is not a function', own.indexOf('onDone'))).find((m) => m.operator === 'optional-call');
  assert.ok(call && !call.suspect);
});
