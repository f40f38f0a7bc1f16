import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { isPatchStatus, PATCH_STATUSES } from '../../core/patch-status.ts';
import { sourceHash, SourceHashCache } from '../../core/source-hash.ts';
import { failureFingerprint, sourceHashOf } from '../../daemon/failure-fingerprint.ts';
import { parseManifest } from '../../sdk/manifest-shape.ts';

// Short, non-ASCII (UTF-8 bytes, not UTF-16 units), and longer than the daemon's cached sources.
const SOURCES = ['(a, b) => a + b', "(p) => p.name + ' — ☃ 𝄞'", `(x) => ${'x + '.repeat(6000)}1`];

test('the block source hash: sha256 of the UTF-8 text, the same in the SDK and the daemon', () => {
  for (const source of SOURCES) {
    const expected = createHash('sha256').update(Buffer.from(source, 'utf8')).digest('hex');
    assert.equal(sourceHash(source), expected);
    assert.equal(sourceHashOf(source), expected, 'daemon, first sight');
    assert.equal(sourceHashOf(source), expected, 'daemon, cached');
    assert.equal(failureFingerprint({ app: 'a', blockId: 'b', source, error: { name: 'Error', message: 'm' } }).sourceHash, expected);
    const fn = new Function(`return ${source}`)() as Function;
    assert.equal(new SourceHashCache().of(fn).hash, sourceHash(Function.prototype.toString.call(fn)));
  }
});

test('patch statuses: one list; the SDK refuses a manifest with a status not on it', () => {
  assert.deepEqual([...PATCH_STATUSES], ['pending-approval', 'canary', 'active', 'rolled-back', 'rejected', 'superseded']);
  assert.ok(PATCH_STATUSES.every(isPatchStatus));
  assert.equal(isPatchStatus('live'), false);
  assert.equal(isPatchStatus(1), false);
  const patch = { id: 'p', app: 'a', blockId: 'b', sourceHash: 'h', version: 1, source: 's', fingerprint: 'f', signature: 'x', rollout: 1 };
  for (const status of PATCH_STATUSES) assert.ok(parseManifest({ app: 'a', revision: 1, patches: [{ ...patch, status }] }, 'a'), status);
  assert.equal(parseManifest({ app: 'a', revision: 1, patches: [{ ...patch, status: 'live' }] }, 'a'), null);
  assert.equal(parseManifest({ app: 'a', revision: 1, patches: [{ ...patch, status: ['active'] }] }, 'a'), null);
});
