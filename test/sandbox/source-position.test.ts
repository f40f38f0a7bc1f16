import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offsetOfPosition } from '../../engine/sandbox/source-position.ts';

test('offsetOfPosition counts every V8 line terminator', () => {
  const source = 'a\nbb\r\nccc\rdd\u2028e';
  assert.equal(offsetOfPosition(source, 1, 1), 0);
  assert.equal(source[offsetOfPosition(source, 2, 2)!], 'b');
  assert.equal(source[offsetOfPosition(source, 3, 3)!], 'c');
  assert.equal(offsetOfPosition(source, 3, 1), 6);
  assert.equal(source[offsetOfPosition(source, 4, 2)!], 'd');
  assert.equal(source[offsetOfPosition(source, 5, 1)!], 'e');
  assert.equal(offsetOfPosition(source, 6, 1), undefined);
  assert.equal(offsetOfPosition(source, 0, 1), undefined);
  assert.equal(offsetOfPosition('x', 1, 5), undefined);
});
