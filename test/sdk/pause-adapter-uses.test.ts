/**
 * The Pause adapter's options form: `pause.run({ id, description, uses }, fn, scope, ...args)` runs
 * `fn` with its outside names from `uses` and `scope` as `this`; a block reading a name left out of
 * `uses` is reported as one suture cannot see, like `repair.run`'s options form.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPauseAdapter, createRepairClient, type SdkError } from '../../sdk/index.ts';

declare const getPlayerCoordinates: () => { x: number };
declare const moveRight: () => void;
declare const self: { x: number };

function client() {
  const errors: SdkError[] = [];
  const repair = createRepairClient({ url: 'http://127.0.0.1:9', app: 'game', sync: 'off', record: { sampleRate: 0 }, waitForFix: 0 });
  repair.on('error', (e) => errors.push(e));
  return { repair, errors, pause: createPauseAdapter(repair) };
}

test('options form: uses are the block\'s outside names, scope its this, arguments pass through', async () => {
  const { repair, pause, errors } = client();
  const enemy = { x: 3 };
  const moves: number[] = [];
  const uses = { getPlayerCoordinates: () => ({ x: 7 }), self: enemy, moveRight: () => moves.push(++enemy.x) };
  const block = function (this: { speed: number }, label: string) {
    const target = getPlayerCoordinates();
    for (let i = 0; i < this.speed && self.x < target.x; i++) moveRight();
    return `${label} at ${self.x}`;
  };
  assert.equal(await pause.run({ id: 'chase', description: 'move towards the player', uses }, block, { speed: 2 }, 'grunt'), 'grunt at 5');
  assert.deepEqual(moves, [4, 5], 'the live moveRight ran on the live enemy');
  assert.equal(await pause.run({ id: 'chase', description: 'move towards the player', uses, receiver: { speed: 1 } }, block, undefined, 'wolf'), 'wolf at 6', 'no scope: the options\' receiver');
  assert.deepEqual(errors, []);
  await repair.close();
});

test('options form: a name left out of uses is one suture cannot see, and the block\'s error is rethrown', async () => {
  const { repair, pause, errors } = client();
  const block = () => getPlayerCoordinates().x;
  assert.throws(() => pause.run({ id: 'peek', description: 'player x', uses: {} }, block), ReferenceError);
  await new Promise((r) => setTimeout(r, 20));
  const cannotSee = errors.find((e) => e.code === 'SUTURE_CANNOT_SEE');
  assert.ok(cannotSee, `errors: ${errors.map((e) => e.code).join(', ')}`);
  assert.match(cannotSee.message, /getPlayerCoordinates/);
  await repair.close();
});
