import { createPauseAdapter, type PauseAdapter, type RepairClient } from '../sdk/index.ts';
import { enemyTick, type Position } from './enemy-ai.mjs';
import { demoClient, type GameOptions } from './game-loop.ts';

export { MOVE_BLOCK, MOVE_DESCRIPTION } from './enemy-ai.mjs';

/** Corridor length, in tiles. */
export const CORRIDOR = 30;

/**
 * An enemy on a one-row map. Its state is private (the AI asks `getCurrentPosition()`); a step onto
 * a teleporter pad puts it in transit until the end of the tick, and an enemy in transit has no
 * position: `getCurrentPosition()` answers null.
 */
export class Enemy {
  #x: number;
  #landing: number | null = null;
  readonly #pads: ReadonlyMap<number, number>;

  constructor(readonly name: string, x: number, pads: ReadonlyMap<number, number>) {
    this.#x = x;
    this.#pads = pads;
  }

  getCurrentPosition(): Position | null {
    return this.#landing === null ? { x: this.#x, y: 0 } : null;
  }

  /** One tile to the right; a pad there sends the enemy into transit towards its exit. */
  step(): void {
    if (this.#landing !== null) throw new Error(`${this.name} cannot move while in transit`);
    this.#x += 1;
    const exit = this.#pads.get(this.#x);
    if (exit !== undefined) this.#landing = exit;
  }

  get inTransit(): boolean {
    return this.#landing !== null;
  }

  /** The tile it stands on (or entered a pad at, while in transit). */
  get tile(): number {
    return this.#x;
  }

  /** End of the tick: an enemy in transit comes out at the pad's exit. */
  endTick(): void {
    if (this.#landing !== null) this.#x = this.#landing;
    this.#landing = null;
  }
}

export interface TickResult {
  /** The enemy's tile before and after the tick (after the teleport, if it stepped on a pad). */
  from: number;
  to: number;
  /** The pad it stepped on this tick, if any. */
  pad?: number;
  /** `moveRight` calls that reached the enemy during this tick. */
  steps: number;
  /** What the AI answered: the enemy has reached the player. */
  reached: boolean;
}

/**
 * The demo's second game: an enemy chasing the player down a corridor with teleporter pads. Each
 * tick runs the AI block through the Pause adapter, with `getPlayerCoordinates`, the enemy (`self`)
 * and `moveRight` in `uses`; every call is recorded (sampleRate 1, a demo setting).
 */
export class EnemyGame {
  readonly repair: RepairClient;
  readonly pause: PauseAdapter;
  readonly pads = new Map<number, number>([[5, 10], [13, 15], [21, 24]]);
  readonly player = { x: 4 };
  readonly enemy = new Enemy('grunt', 1, this.pads);
  /** `moveRight` calls that reached the enemy in the current tick. */
  stepsThisTick = 0;
  readonly getPlayerCoordinates = (): Position => ({ x: this.player.x, y: 0 });
  readonly moveRight = (): void => {
    this.stepsThisTick += 1;
    this.enemy.step();
  };

  constructor(o: GameOptions) {
    this.repair = demoClient(o, 'game-server-2');
    this.pause = createPauseAdapter(this.repair);
  }

  /** One tick of the enemy's AI; settles once the tick is over (a failing tick waits for its fix). */
  async tick(): Promise<TickResult> {
    const from = this.enemy.tile;
    this.stepsThisTick = 0;
    try {
      const reached = await enemyTick(this.pause, this.getPlayerCoordinates, this.enemy, this.moveRight);
      const pad = this.enemy.inTransit ? this.enemy.tile : undefined;
      return { from, to: (this.enemy.endTick(), this.enemy.tile), ...(pad === undefined ? {} : { pad }), steps: this.stepsThisTick, reached };
    } finally {
      this.enemy.endTick();
    }
  }

  /** The corridor as one line: P the player, E the enemy (* both), O a pad, · floor. */
  render(): string {
    let row = '';
    for (let x = 0; x < CORRIDOR; x++) {
      const e = !this.enemy.inTransit && this.enemy.tile === x;
      const p = this.player.x === x;
      row += e && p ? '*' : e ? 'E' : p ? 'P' : this.pads.has(x) ? 'O' : '·';
    }
    return `|${row}|`;
  }
}
