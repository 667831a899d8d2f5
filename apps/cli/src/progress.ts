/** The progress line of `adloom generate`: rows done, lines written and the rate, on one line. */

/** Items between looks at the clock. */
const ITEMS_PER_CHECK = 4096;
/** Time between two progress lines, in milliseconds. */
const REDRAW_MS = 250;

/** Counts what the run writes and redraws one line (carriage return, no new line) now and then. */
export class Progress {
  private totalRows = 0;
  private rowsDone = 0;
  private written = 0;
  private sinceCheck = 0;
  private started = 0;
  private lastDrawn = 0;
  /** What the rows are being read for ('keywords', then 'ads'); empty at the end. */
  private stage = '';
  /** What the ads' thread has written (`watchAds`), and its ads counted in `written`. */
  private adsSource: (() => { ads: number; row: number }) | undefined;
  private adsCounted = 0;

  constructor(private readonly write: (s: string) => void) {}

  /** The run starts over `totalRows` feed rows. */
  start(totalRows: number): void {
    this.totalRows = totalRows;
    this.started = this.lastDrawn = Date.now();
  }

  /** The keyword pass made a group of the row `rowId` (its row number). */
  group(rowId: string): void {
    this.stage = 'keywords';
    this.rowsDone = Number(rowId);
    this.count(1);
  }

  /** A chunk of CSV lines was written. */
  lines(chunk: string): void {
    let n = 0;
    for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', at + 1)) n++;
    this.count(n);
  }

  /** An ad of the row `rowId` (its row number) was written. */
  ad(rowId: string): void {
    this.stage = 'ads';
    this.rowsDone = Number(rowId);
    this.count(1);
  }

  /**
   * The ads are made on another thread beside the keywords: each line drawn reads what it has
   * written (`ads`, the last of row `row`) and shows both.
   */
  watchAds(source: () => { ads: number; row: number }): void {
    this.adsSource = source;
  }

  /** The keyword step is over and the ads' thread goes on (called now and then). */
  waitingForAds(): void {
    this.stage = 'ads';
    const now = Date.now();
    if (now - this.lastDrawn >= REDRAW_MS) this.draw(now);
  }

  /** The last line, then a line break. */
  end(): void {
    this.stage = '';
    this.rowsDone = this.totalRows;
    this.draw(Date.now());
    this.write('\n');
  }

  private count(n: number): void {
    this.written += n;
    this.sinceCheck += n;
    if (this.sinceCheck < ITEMS_PER_CHECK) return;
    this.sinceCheck = 0;
    const now = Date.now();
    if (now - this.lastDrawn >= REDRAW_MS) this.draw(now);
  }

  private draw(now: number): void {
    this.lastDrawn = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const of = (n: number): string =>
      `rows ${n.toLocaleString('en')} of ${this.totalRows.toLocaleString('en')}`;
    let rows = this.rowsDone ? of(this.rowsDone) : `${this.totalRows.toLocaleString('en')} rows`;
    const stage = this.stage ? `${this.stage}: ` : '';
    if (this.adsSource) {
      const { ads, row } = this.adsSource();
      this.written += ads - this.adsCounted;
      this.adsCounted = ads;
      if (this.stage === 'keywords') rows += `, ads: ${of(row)}`;
      else if (this.stage === 'ads') rows = of(row);
    }
    const rate = Math.round(this.written / seconds).toLocaleString('en');
    this.write(
      `\r${stage}${rows}, ${this.written.toLocaleString('en')} lines written, ${rate} lines/s, ${seconds.toFixed(1)} s   `,
    );
  }
}
