/** One line of the performance table (and of `--json FILE`); ratio = value / baseline. */
export interface PerfRow {
  figure: string;
  value: number;
  baseline: number | null;
  ratio: number | null;
  unit: string;
  /** What the row is held to, for the printed table (not part of the JSON format). */
  target: string;
  /** Whether the row meets its target; null when the row has no numeric target. */
  meets: boolean | null;
  note?: string;
}

export function row(figure: string, value: number, baseline: number | null, unit: string, target: string, meets: (ratio: number | null, value: number) => boolean | null, note?: string): PerfRow {
  const ratio = baseline === null || baseline === 0 ? null : value / baseline;
  const r: PerfRow = { figure, value, baseline, ratio, unit, target, meets: meets(ratio, value) };
  if (note) r.note = note;
  return r;
}

/** Ratio must stay at or under `max`. */
export const atMost = (max: number) => (ratio: number | null): boolean | null => (ratio === null ? null : ratio <= max);
/** Ratio must reach `min`. */
export const atLeast = (min: number) => (ratio: number | null): boolean | null => (ratio === null ? null : ratio >= min);
export const reportOnly = (): null => null;

function fmt(n: number | null): string {
  if (n === null) return '—';
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(n === 0 ? 0 : 2);
}

/** Markdown table of the rows, as the README shows it. */
export function formatTable(rows: PerfRow[]): string {
  const lines = ['| figure | value | baseline | ratio | unit | target | meets |', '|---|---:|---:|---:|---|---|---|'];
  for (const r of rows) {
    const meets = r.meets === null ? '—' : r.meets ? 'yes' : 'no';
    lines.push(`| ${r.figure} | ${fmt(r.value)} | ${fmt(r.baseline)} | ${r.ratio === null ? '—' : fmt(r.ratio) + '×'} | ${r.unit} | ${r.target} | ${meets} |`);
  }
  return lines.join('\n');
}
