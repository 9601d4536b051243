// Ingest progress on stderr. On a terminal: one bar redrawn in place (documents done, percent,
// documents/s, ETA) and erased at the end. Otherwise: a plain line every `intervalMs`, so logs and
// CI output stay readable. The rate is the average since the start; the ETA needs a total.
import { formatDuration } from './client-env.js';

export interface ProgressStream {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Documents expected, when known (enables percent and ETA). */
  total?: number;
  /** Plain-line interval when not a terminal (default 2 s). */
  intervalMs?: number;
  /** Redraw interval on a terminal (default 100 ms). */
  redrawMs?: number;
  now?: () => number;
}

export class Progress {
  private done = 0;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;

  constructor(
    private readonly out: ProgressStream,
    private readonly opts: ProgressOptions = {},
  ) {
    this.started = this.now();
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  start(): void {
    const tty = this.out.isTTY === true;
    this.timer = setInterval(() => this.draw(), tty ? (this.opts.redrawMs ?? 100) : (this.opts.intervalMs ?? 2000));
    this.timer.unref();
  }

  update(documents: number): void {
    this.done = documents;
  }

  /** documents/s, and seconds left when the total is known. */
  stats(): { rate: number; eta: number | undefined; fraction: number | undefined } {
    const secs = (this.now() - this.started) / 1000;
    const rate = secs > 0 ? this.done / secs : 0;
    const total = this.opts.total;
    if (!total) return { rate, eta: undefined, fraction: undefined };
    const fraction = Math.min(1, this.done / total);
    const eta = rate > 0 ? Math.max(0, total - this.done) / rate : undefined;
    return { rate, eta, fraction };
  }

  /** The terminal bar, fitted to the width. */
  bar(width = this.out.columns || 80): string {
    const { rate, eta, fraction } = this.stats();
    const count = this.opts.total ? `${this.done}/${this.opts.total} docs` : `${this.done} docs`;
    const tail = ` ${count} · ${Math.round(rate)} docs/s · ETA ${eta === undefined ? '?' : formatDuration(eta)}`;
    if (fraction === undefined) return tail.trimStart();
    const pct = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
    const cells = Math.max(10, Math.min(40, width - tail.length - pct.length - 4));
    const full = Math.round(fraction * cells);
    return `[${'#'.repeat(full)}${'-'.repeat(cells - full)}] ${pct}${tail}`;
  }

  /** The plain line for logs. */
  line(): string {
    const { rate, eta, fraction } = this.stats();
    const count = this.opts.total
      ? `${this.done}/${this.opts.total} documents (${Math.floor((fraction ?? 0) * 100)}%)`
      : `${this.done} documents`;
    return `ingest: ${count}, ${Math.round(rate)} docs/s${eta === undefined ? '' : `, ETA ${formatDuration(eta)}`}`;
  }

  draw(): void {
    if (this.out.isTTY) {
      this.out.write(`\r${this.bar()}\x1b[K`);
      this.drawn = true;
    } else {
      this.out.write(`${this.line()}\n`);
    }
  }

  /** Stops redrawing and erases the bar (the summary is printed by the caller). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }
}
