import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { encodeSnapshot } from '../../core/snapshot.ts';
import { buildExport, exportBaseName } from '../../service/regression-export.ts';
import { runNode } from './cli-process.ts';

const ORIGINAL = `async (cart) => {
  let total = 0;
  for (const [, price] of cart.items) total += price;
  cart.checkedAt = new Date(0);
  return total;
}`;
const FIX = ORIGINAL.replace('cart.items)', '(cart.items ?? new Map()))');

describe('regression export (values beyond JSON, an async block)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'suture-export-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const recordedCall = (items: Map<string, number>, total: number) => {
    const before = { id: 1, items, note: undefined };
    const afterCall = { id: 1, items, note: undefined, checkedAt: new Date(0) };
    return { args: [encodeSnapshot(before)], result: encodeSnapshot(total), argsAfter: [encodeSnapshot(afterCall)], at: new Date().toISOString() };
  };
  const files = buildExport({
    patch: { id: '0123456789abcdef-v2', app: 'shop', blockId: 'cart-total', version: 2, source: FIX, fingerprint: '0123456789abcdef0123', score: { generator: 'template:nullish-default', description: 'default cart.items' } },
    originalSource: ORIGINAL,
    failures: [{ args: [encodeSnapshot({ id: 2, note: undefined })], at: '2024-01-01T00:00:00.000Z', error: { name: 'TypeError', message: 'cart.items is not iterable' } }],
    recorded: [recordedCall(new Map([['a', 2], ['b', 3]]), 5), recordedCall(new Map(), 0)],
  });

  it('names the files after the patch and diffs the block', () => {
    assert.equal(files.diffName, '0123456789abcdef-v2.diff');
    assert.equal(files.testName, '0123456789abcdef-v2.test.mjs');
    assert.equal(exportBaseName('a/b c'), 'a_b_c');
    assert.match(files.diff, /^-  for \(const \[, price\] of cart\.items\) total \+= price;\n\+  for \(const \[, price\] of \(cart\.items \?\? new Map\(\)\)\) total \+= price;/m);
  });

  it('the test file stands alone: passes on the fix, fails on the original, and catches a wrong fix', { timeout: 30_000 }, async () => {
    const file = join(dir, files.testName);
    writeFileSync(file, files.test);
    const wrong = files.test.replace(FIX, ORIGINAL.replace('cart.items)', '(cart.items ?? []))').replace('new Date(0)', 'new Date(1)'));
    const wrongFile = join(dir, 'wrong.test.mjs');
    writeFileSync(wrongFile, wrong);
    const [fix, original, bad] = await Promise.all([
      runNode(['--test', '--test-reporter=tap', file]),
      runNode(['--test', '--test-reporter=tap', file], { SUTURE_EXPORT_TARGET: 'original' }),
      runNode(['--test', '--test-reporter=tap', wrongFile]),
    ]);
    assert.equal(fix.code, 0, fix.stdout + fix.stderr);
    assert.match(fix.stdout, /# pass 3\n# fail 0/);
    assert.notEqual(original.code, 0);
    assert.match(original.stdout, /not ok 1 - the original failure \(TypeError: cart\.items is not iterable\) no longer throws/);
    assert.match(original.stdout, /# pass 2\n# fail 1/);
    // A "fix" that stops the throw but changes the argument state after the call is caught by the recorded calls.
    assert.notEqual(bad.code, 0);
    assert.match(bad.stdout, /argument 1 after the call is/);
  });
});
