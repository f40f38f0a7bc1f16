/**
 * A bug with two throw sites (`${user.address.city} ${user.address.zip}` on a user with no address) needs
 * two edits, and the second site is invisible to localisation until the first is fixed: the failing run
 * stops at the first. A candidate that fixed the first site still throws on the failing input, but with
 * another error, further on. Once the first search finds nothing plausible, the engine mutates the best
 * of those candidates at their own throw site: one edit more, where the next throw really is.
 */
import type { Block, CandidateSpec, SuspiciousRange, TrialError } from '../../core/types.ts';
import { generateTemplateCandidates } from '../generators/template/index.ts';
import type { CandidateReport } from '../repair-report.ts';

/** Candidates followed up, and candidates generated from each. */
const FOLLOWED = 3;
const PER_CANDIDATE = 300;

/** Keeps the most likely candidates whose throw on a failing case differs from the original's there. */
export class MovedThrows {
  readonly #kept: { candidate: CandidateReport; error: TrialError }[] = [];

  constructor(private readonly originalErrors: ReadonlyMap<string, TrialError | undefined>) {}

  consider(candidate: CandidateReport): void {
    if (candidate.suspect || candidate.status !== 'failed') return;
    const last = candidate.trials.at(-1);
    if (!last || last.verdict !== 'threw' || !last.error || !this.originalErrors.has(last.caseId)) return;
    const before = this.originalErrors.get(last.caseId);
    if (before && before.name === last.error.name && before.message === last.error.message) return;
    this.#kept.push({ candidate, error: last.error });
    this.#kept.sort((a, b) => b.candidate.prior - a.candidate.prior || a.candidate.rank - b.candidate.rank);
    this.#kept.length = Math.min(this.#kept.length, FOLLOWED);
  }

  get size(): number {
    return this.#kept.length;
  }

  /** One edit more on each kept candidate, at the line it now throws on first. */
  *followUps(block: Block): Generator<CandidateSpec> {
    for (const { candidate, error } of [...this.#kept]) {
      const source = candidate.source;
      const ranking: SuspiciousRange[] = [{ start: 0, end: source.length, score: 0.1, reason: 'all' }];
      if (error.offset !== undefined) {
        const start = source.lastIndexOf('\n', error.offset - 1) + 1;
        const end = source.indexOf('\n', error.offset);
        ranking.unshift({ start, end: end === -1 ? source.length : end, score: 1, reason: 'throw-site' });
      }
      const specs = generateTemplateCandidates({ ...block, source }, ranking, { maxCandidates: PER_CANDIDATE, pairs: false }, { name: error.name, message: error.message, offset: error.offset });
      for (const spec of specs) {
        yield {
          source: spec.source,
          generator: spec.generator,
          description: `${candidate.description}; then ${spec.description}`,
          prior: candidate.prior * spec.prior,
          ...(spec.suspect ? { suspect: true } : {}),
        };
      }
    }
  }
}
