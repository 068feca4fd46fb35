import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_DEBOUNCE_MS = 300;

export interface FolderWatcherOptions {
  /** Quiet time after the last event on a path before the path is handled. */
  debounceMs?: number;
  /** Paths (relative to the folder) whose events are ignored. */
  ignore?: (relativePath: string) => boolean;
  /** Handles paths whose events have settled. Calls never overlap; paths settling meanwhile wait. */
  onSettled: (paths: string[]) => Promise<void>;
  onError: (error: Error) => void;
}

/**
 * Watches a folder recursively (`fs.watch`, inotify on Linux) and reports each changed path once
 * its events have been quiet for the debounce time: an editor's save or a copy of a large file
 * makes a burst of events, and the path is handled once, after the burst.
 */
export class FolderWatcher {
  private readonly watcher: FSWatcher;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly settled = new Set<string>();
  private draining: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly folder: string,
    private readonly options: FolderWatcherOptions,
  ) {
    this.watcher = watch(folder, { recursive: true }, (_event, filename) => this.onEvent(filename));
    this.watcher.on('error', (error) => {
      options.onError(error);
      void this.close();
    });
  }

  /** Stops watching; resolves once a handler that is running has finished. */
  async close(): Promise<void> {
    this.closed = true;
    this.watcher.close();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.draining;
  }

  private onEvent(filename: string | null): void {
    if (this.closed) return;
    if (filename && this.options.ignore?.(filename)) return;
    // No name means the kernel dropped events: look at the whole folder again.
    const path = filename ? join(this.folder, filename) : this.folder;
    clearTimeout(this.timers.get(path));
    const timer = setTimeout(() => {
      this.timers.delete(path);
      this.settled.add(path);
      this.draining ??= this.drain();
    }, this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    this.timers.set(path, timer);
  }

  private async drain(): Promise<void> {
    // Paths whose timers fire together are handled as one batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.settled.size > 0 && !this.closed) {
      const batch = [...this.settled];
      this.settled.clear();
      try {
        await this.options.onSettled(batch);
      } catch (error) {
        this.options.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
    this.draining = undefined;
  }
}
