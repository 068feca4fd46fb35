import type { Logger } from '../log.js';
import { systemClock, type Clock } from '../notifications/clock.js';
import type { MediaLibrary } from './library.js';

export interface MediaSweepOptions {
  /** Tests pass a clock they move by hand. */
  clock?: Clock;
  /** How often a pass runs (default 5 minutes); false runs none unless `sweep` is called. */
  intervalMs?: number | false;
  /** How long after its target expired an unlinked upload is kept (default 15 minutes). */
  graceSeconds?: number;
}

export const DEFAULT_MEDIA_SWEEP_INTERVAL_MS = 5 * 60_000;
export const DEFAULT_UPLOAD_GRACE_SECONDS = 15 * 60;

/**
 * Removes the files of presigned uploads never linked to a message, once their target's lifetime
 * and the grace have passed (a sender uploads, then sends within that time), and those of
 * multipart sends whose process died before the message was sent. Every process of a
 * cluster may run it: each upload is removed by the one pass that takes its record.
 */
export class MediaSweeper {
  private timer: ReturnType<typeof setInterval> | undefined;
  private pass: Promise<unknown> = Promise.resolve();
  private readonly clock: Clock;
  private readonly intervalMs: number | false;
  private readonly graceSeconds: number;

  constructor(
    private readonly media: MediaLibrary,
    private readonly logger: Logger,
    options: MediaSweepOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.intervalMs = options.intervalMs ?? DEFAULT_MEDIA_SWEEP_INTERVAL_MS;
    this.graceSeconds = options.graceSeconds ?? DEFAULT_UPLOAD_GRACE_SECONDS;
  }

  start(): this {
    if (this.intervalMs !== false && this.timer === undefined) {
      this.timer = setInterval(() => {
        this.pass = this.sweep().catch((error: unknown) =>
          this.logger.error('media_sweep_failed', {
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      }, this.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  /** Stops the timer and waits for a pass under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.pass;
  }

  /** One pass at the clock's time: answers how many uploads it removed. */
  async sweep(): Promise<number> {
    const now = Math.floor(this.clock.now() / 1000);
    let removed = 0;
    for (;;) {
      const swept = await this.media.sweepUnlinked(now, this.graceSeconds);
      removed += swept;
      if (swept === 0) break;
    }
    if (removed > 0) this.logger.info('media_uploads_swept', { removed });
    return removed;
  }
}
