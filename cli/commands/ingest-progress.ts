import { isAbsolute, relative } from 'node:path';
import type { IngestEvent } from '../../knowledge/index.js';

/** A source label as a person at this terminal reads it: paths under the working folder are relative. */
export function displaySource(source: string): string {
  if (!isAbsolute(source)) return source;
  const rel = relative(process.cwd(), source);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : source;
}

export interface ProgressReporter {
  onProgress: (event: IngestEvent) => void;
  /** Clears the bar, if one is drawn. */
  finish: () => void;
}

/** One line per finished step: for logs and pipes, where a redrawn bar would be noise. */
export function lineReporter(stream: NodeJS.WritableStream): ProgressReporter {
  return {
    onProgress: (event) => {
      const line = describeEvent(event);
      if (line) stream.write(`${line}\n`);
    },
    finish: () => undefined,
  };
}

export function describeEvent(event: IngestEvent): string | undefined {
  const source = displaySource(event.source);
  switch (event.type) {
    case 'indexed': {
      const pages = event.pages ? `${plural(event.pages, 'page')}, ` : '';
      const warnings = event.warnings.length > 0 ? ` (warning: ${event.warnings.join('; ')})` : '';
      return `indexed ${source}: ${pages}${plural(event.chunks, 'chunk')}${warnings}`;
    }
    case 'unchanged':
      return `unchanged ${source}`;
    case 'removed':
      return `removed ${source}`;
    case 'failed':
      return `failed ${source}: ${event.error}`;
    case 'queued':
    case 'parsing':
      return undefined;
  }
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

const BAR_WIDTH = 24;

/**
 * A progress bar on one redrawn terminal line: sources done out of queued, and what is being
 * parsed. Failures and warnings are printed above it as they happen, so none scrolls away unseen.
 */
export function barReporter(stream: NodeJS.WriteStream): ProgressReporter {
  let queued = 0;
  let done = 0;
  let current = '';
  const draw = (): void => {
    const filled = queued === 0 ? 0 : Math.round((done / queued) * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${queued}`;
    // A terminal that reports no width (0) gets the common 80.
    const room = (stream.columns || 80) - bar.length - 2;
    const detail =
      current.length <= room ? current : room > 10 ? `…${current.slice(current.length - room + 1)}` : '';
    stream.write(`\r\x1b[2K${bar}  ${detail}`);
  };
  const printAbove = (line: string): void => {
    stream.write(`\r\x1b[2K${line}\n`);
  };
  return {
    onProgress: (event) => {
      const source = displaySource(event.source);
      switch (event.type) {
        case 'queued':
          queued++;
          break;
        case 'parsing':
          current = `${source} page ${event.page}/${event.pages}`;
          break;
        case 'indexed':
          done++;
          current = source;
          if (event.warnings.length > 0) printAbove(`warning ${source}: ${event.warnings.join('; ')}`);
          break;
        case 'unchanged':
          done++;
          break;
        case 'failed':
          done++;
          printAbove(describeEvent(event) ?? '');
          break;
        case 'removed':
          printAbove(describeEvent(event) ?? '');
          break;
      }
      draw();
    },
    finish: () => stream.write('\r\x1b[2K'),
  };
}
