import type { PauseAdapter } from '../sdk/pause-adapter.ts';
import type { RunResult } from '../sdk/repair-client.ts';

export const MOVE_BLOCK: string;
export const MOVE_DESCRIPTION: string;
export interface Position {
  x: number;
  y: number;
}
export function enemyTick(
  pause: PauseAdapter,
  getPlayerCoordinates: () => Position,
  self: { getCurrentPosition(): Position | null },
  moveRight: () => void,
): RunResult<boolean>;
