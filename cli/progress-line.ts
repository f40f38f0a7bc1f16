/** A single self-rewriting progress line on a terminal; one plain line per step elsewhere (CI logs). */
export class ProgressLine {
  private readonly tty: boolean;
  private readonly started = performance.now();

  constructor(private readonly stream: NodeJS.WriteStream) {
    this.tty = Boolean(stream.isTTY);
  }

  update(done: number, total: number, label: string, plainLine?: string): void {
    const elapsed = (performance.now() - this.started) / 1000;
    const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
    if (this.tty) {
      const width = 24;
      const filled = total > 0 ? Math.round((done / total) * width) : 0;
      const bar = '#'.repeat(filled) + '-'.repeat(width - filled);
      this.stream.write(`\r[${bar}] ${done}/${total} ${elapsed.toFixed(0)}s eta ${eta.toFixed(0)}s ${label}`.slice(0, (this.stream.columns || 120) - 1).padEnd(Math.min(120, (this.stream.columns || 120) - 1)));
    } else {
      this.stream.write(`[${done}/${total} ${elapsed.toFixed(0)}s] ${plainLine ?? label}\n`);
    }
  }

  finish(): void {
    if (this.tty) this.stream.write('\n');
  }
}
