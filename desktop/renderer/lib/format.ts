/** Sizes as people read them: 812 B, 14.2 KB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** A date and time in the reader's own locale, short. */
export function formatTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A relevance score with two decimals. */
export function formatScore(score: number): string {
  return score.toFixed(2);
}

/** "1 document", "3 documents". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The last segment of a path or URL, for showing a source by its file name. */
export function baseName(source: string): string {
  const trimmed = source.replace(/[\\/]+$/, '');
  return trimmed.split(/[\\/]/).at(-1) || source;
}

const FORMAT_NAMES = { pdf: 'PDF', markdown: 'Markdown', html: 'HTML', text: 'Text' } as const;

export function formatName(format: keyof typeof FORMAT_NAMES): string {
  return FORMAT_NAMES[format];
}
