/**
 * Folds of a bug suite, for measuring how the engine does on bugs its learned priors never saw.
 *
 * The split: every bug of the suite in natural id order (`JavaScript/2` before `JavaScript/10`, as the
 * loader sorts them); the bug at position p belongs to fold `p mod k`. The positions are those of the
 * WHOLE suite, whatever `--only` later selects, so a bug's fold depends only on the suite's bug ids and
 * k. For HumanEvalFix-JS dev (even task numbers 0…162) and k = 5, fold f holds tasks n with
 * (n / 2) mod 5 = f: fold 0 is tasks 0, 10, 20, … 160.
 *
 * Fold 0 is the reserved fold: it is measured once, at the end, and nobody inspects its bugs or tunes on
 * them. Its results are not learned from when another fold is measured (so nothing tuned from folds
 * 1…k-1 ever saw it), and the bench runs it only when asked to open it explicitly.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { compareBugIds } from './suite-loader.ts';

export const RESERVED_FOLD = 0;

export interface FoldSplit {
  k: number;
  /** Bug id → fold. */
  foldOf: ReadonlyMap<string, number>;
}

/** The split of a list of bug ids into k folds (see the module comment). */
export function splitFolds(ids: readonly string[], k: number): FoldSplit {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`folds must be an integer of at least 2, got ${k}`);
  const sorted = [...new Set(ids)].sort(compareBugIds);
  if (sorted.length < k) throw new RangeError(`${sorted.length} bugs cannot make ${k} folds`);
  return { k, foldOf: new Map(sorted.map((id, position) => [id, position % k])) };
}

export function bugsOfFold(split: FoldSplit, fold: number): string[] {
  checkFold(split.k, fold);
  return [...split.foldOf].filter(([, f]) => f === fold).map(([id]) => id).sort(compareBugIds);
}

export function checkFold(k: number, fold: number): void {
  if (!Number.isInteger(fold) || fold < 0 || fold >= k) throw new RangeError(`fold must be an integer from 0 to ${k - 1}, got ${fold}`);
}

/**
 * Which bugs priors are learned from when fold `fold` is measured. 'out' (out-of-fold): every other fold;
 * 'in' (in-fold): every fold, this one included. The reserved fold feeds learning only when it is the
 * one measured.
 */
export function trainingBugs(split: FoldSplit, fold: number, role: 'in' | 'out'): Set<string> {
  checkFold(split.k, fold);
  const out = new Set<string>();
  for (const [id, f] of split.foldOf) {
    if (role === 'out' && f === fold) continue;
    if (f === RESERVED_FOLD && fold !== RESERVED_FOLD) continue;
    out.add(id);
  }
  return out;
}

/** The ids of every bug of a suite directory, read from each bug's bug.json (no case is parsed). */
export async function suiteBugIds(suiteDir: string): Promise<string[]> {
  const bugsDir = path.join(suiteDir, 'bugs');
  const ids: string[] = [];
  for (const entry of await readdir(bugsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const meta = JSON.parse(await readFile(path.join(bugsDir, entry.name, 'bug.json'), 'utf8')) as { id?: unknown };
    if (typeof meta.id !== 'string' || meta.id === '') throw new Error(`${path.join(bugsDir, entry.name, 'bug.json')}: no "id"`);
    ids.push(meta.id);
  }
  return ids.sort(compareBugIds);
}
