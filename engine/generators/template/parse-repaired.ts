import type { Block, CandidateSpec, SuspiciousRange } from '../../../core/types.ts';
import { BlockParseError, blockForm, repairParse } from '../../syntax/index.ts';
import type { ErrorInfo } from './mutation-context.ts';
import { normaliseSource } from './normalise-source.ts';
import { PRIORS } from './operator-priors.ts';

/** Repaired blocks searched further (the rest are tried as they are). */
const MAX_SEARCHED = 4;

/** The template generator's signature, passed in so that this module does not import it back. */
type Generate<O> = (block: Block, suspicious: SuspiciousRange[], options: O, errorInfo?: ErrorInfo) => Iterable<CandidateSpec>;

/**
 * Candidates for a block that does not parse: first each token-level repair that makes it parse (`parse-repair`,
 * fewest edits first), then the usual template search on every repaired block, taking one candidate from each
 * in turn so that a fix needing a parse repair and one more edit is reached from any of them. Candidates carry no
 * `edits` (their offsets would index the repaired source, not the block's). Throws `error` again when no repair
 * makes the block parse.
 */
export function* parseRepairedCandidates<O extends { maxCandidates?: number }>(
  block: Block,
  error: BlockParseError,
  options: O,
  errorInfo: ErrorInfo | undefined,
  generate: Generate<O>,
): Generator<CandidateSpec> {
  const repairs = repairParse(block.source, blockForm(block));
  if (repairs.length === 0) throw error;
  const maxCandidates = options.maxCandidates ?? Number.POSITIVE_INFINITY;
  const seen = new Set<string>();
  let yielded = 0;
  const fresh = (source: string): boolean => {
    const key = normaliseSource(source);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  for (const repair of repairs) {
    if (yielded >= maxCandidates) return;
    if (!fresh(repair.source)) continue;
    yielded++;
    yield { source: repair.source, generator: 'template:parse-repair', description: repair.steps.join('; '), prior: PRIORS.parseRepair };
  }
  // Offsets of the failing run index the unparsable source: keep only what the error says.
  const info = errorInfo ? { name: errorInfo.name, message: errorInfo.message } : undefined;
  // The likeliest repairs get the larger shares of each turn: 4, 2, then 1 candidate.
  const streams = repairs.slice(0, MAX_SEARCHED).map((repair, i) => ({
    repair, share: Math.max(1, 4 >> i), iterator: generate({ ...block, source: repair.source }, [], options, info)[Symbol.iterator](),
  }));
  while (streams.length > 0 && yielded < maxCandidates) {
    for (let i = 0; i < streams.length && yielded < maxCandidates; i++) {
      const { repair, share, iterator } = streams[i];
      for (let taken = 0; taken < share && yielded < maxCandidates; taken++) {
        const next = iterator.next();
        if (next.done) {
          streams.splice(i--, 1);
          break;
        }
        const spec = next.value;
        if (!fresh(spec.source)) continue;
        yielded++;
        const { edits: _edits, ...rest } = spec;
        yield { ...rest, prior: spec.prior * PRIORS.parseRepair, description: `${repair.steps.join('; ')}; ${spec.description}` };
      }
    }
  }
}
