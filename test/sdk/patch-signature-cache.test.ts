import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourceHashCache } from '../../core/source-hash.ts';
import { ClientEvents } from '../../sdk/client-events.ts';
import type { ResolvedOptions } from '../../sdk/client-options.ts';
import { PatchTable } from '../../sdk/patch-table.ts';
import type { SdkError } from '../../sdk/sdk-errors.ts';
import { makeKeys, signedPatch } from './signed-patch.ts';

test('a patch that verified once does not lend its signature to another patch: a manifest that changes its source (same length), fingerprint or evidence is refused', () => {
  const keys = makeKeys();
  const events = new ClientEvents();
  const errors: SdkError[] = [];
  events.emitter.on('error', (e) => errors.push(e));
  events.constructed();
  const table = new PatchTable({ options: { app: 'game', publicKey: keys.publicKey } as unknown as ResolvedOptions, events, hashes: new SourceHashCache(), executor: null, release: () => {} });
  const good = signedPatch(keys.privateKey, { app: 'game', blockId: 'b', original: '(x) => x.y', source: '(x) => x?.y', mode: 'fallback' });
  assert.equal(table.verify(good), true);
  const sameLength = { ...good, source: '(x) => x?.z' };
  assert.equal(sameLength.source.length, good.source.length);
  assert.equal(table.verify(sameLength), false, 'a same-length source under the verified signature');
  assert.equal(table.verify({ ...good, fingerprint: 'fp-other' }), false, 'another fingerprint under the verified signature');
  assert.equal(table.verify(good), true, 'the signed patch itself still verifies');
  assert.equal(errors.filter((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID').length, 2);
});
