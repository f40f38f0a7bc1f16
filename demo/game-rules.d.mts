export interface Fighter {
  name: string;
  health: number;
  stats?: { strength?: number; armor?: number };
  [key: string]: unknown;
}
export function applyAttack(player: Fighter, enemy: Fighter): number;
