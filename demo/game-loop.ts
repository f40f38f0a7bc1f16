import { createRepairClient, type RepairClient } from '../sdk/index.ts';
import { applyAttack, type Fighter } from './game-rules.mjs';

export const GAME_APP = 'game';
export const DAMAGE_BLOCK = 'player-damage-calc';
export const DAMAGE_DESCRIPTION = 'Calculate damage dealt by player to enemy based on strength and armor stats';

export interface GameOptions {
  url: string;
  token: string;
  /** The daemon's patch-signing public key (PEM): patches that don't verify with it never run. */
  publicKey: string;
  /** How long a failing attack waits for its fix before the error is rethrown, ms. @defaultValue 60000 */
  waitForFixMs?: number;
}

/** The SDK client of a demo game: every call recorded (sampleRate 1, a demo setting), failing calls wait for their fix. */
export function demoClient(o: GameOptions, instanceId: string): RepairClient {
  return createRepairClient({
    url: o.url,
    app: GAME_APP,
    token: o.token,
    publicKey: o.publicKey,
    instanceId,
    record: { sampleRate: 1 },
    waitForFix: o.waitForFixMs ?? 60_000,
    flushInterval: 100,
  });
}

/**
 * The demo's game server, built on the SDK like any app would be: every attack goes through
 * `repair.run` (block "player-damage-calc"), every successful call is recorded (sampleRate 1, a
 * demo setting; production uses a small share) and a failing call waits for its fix.
 */
export class DemoGame {
  readonly repair: RepairClient;
  /** The player carries a session token: it must never leave the process (redacted in snapshots). */
  readonly hero: Fighter = { name: 'Ayla', health: 100, stats: { strength: 12 }, session: { authToken: 'live_7f3a9c2e41b8d055' } };

  constructor(o: GameOptions) {
    this.repair = demoClient(o, 'game-server-1');
  }

  /** One attack of the hero; a number, or a promise of one while a failing call waits for its fix. */
  attack(enemy: Fighter): number | Promise<number> {
    return this.repair.run(DAMAGE_BLOCK, DAMAGE_DESCRIPTION, applyAttack, this.hero, enemy);
  }

  static spawn(name: string, health: number, armor?: number): Fighter {
    // Enemies from the old templates (ghosts, wisps) were made before stats existed.
    return armor === undefined ? { name, health } : { name, health, stats: { armor } };
  }
}
