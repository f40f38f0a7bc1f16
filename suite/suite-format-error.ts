/**
 * A suite on disk does not follow the layout in bench/suites/README.md.
 * Carries the offending file and the field inside it so a suite author can go straight to it.
 */
export class SuiteFormatError extends Error {
  readonly code = 'SUTURE_SUITE_FORMAT';
  /** Path of the offending file (absolute, as read). */
  readonly file: string;
  /** Dotted path of the offending field inside the file, e.g. `[2].expect`; `''` for the file as a whole. */
  readonly field: string;

  constructor(file: string, field: string, problem: string) {
    super(`${file}${field ? ` (field ${field})` : ''}: ${problem}`);
    this.name = 'SuiteFormatError';
    this.file = file;
    this.field = field;
  }
}
