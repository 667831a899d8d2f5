import type { Timers } from './timers.ts';

/** Spec sections 4 and 9: feeds and templates are saved every 5 minutes while unsaved. */
export const AUTOSAVE_INTERVAL_MS = 5 * 60_000;

/** Runs a quiet save every AUTOSAVE_INTERVAL_MS while started. */
export class Autosave {
  private handle: unknown = undefined;

  constructor(
    private readonly timers: Timers,
    private readonly run: () => void,
  ) {}

  start(): void {
    this.stop();
    this.handle = this.timers.setInterval(this.run, AUTOSAVE_INTERVAL_MS);
  }

  stop(): void {
    if (this.handle !== undefined) this.timers.clearInterval(this.handle);
    this.handle = undefined;
  }
}
