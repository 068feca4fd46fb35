const MAX_MESSAGE_CHARS = 300;
/** Environment values shorter than this are too common ("true", "C.UTF-8") to be worth hiding. */
const MIN_SECRET_CHARS = 8;

const POSIX_PATH = /(?<![\w.:/~-])\/(?:[^\s'"`,;()<>[\]/]+\/)*([^\s'"`,;()<>[\]/]*)/g;
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[^\s'"`,;()<>[\]\\]+\\)*([^\s'"`,;()<>[\]\\]*)/g;
const FILE_URL = /file:\/\/\S*?([^\s/'"`]*)(?=[\s'"`]|$)/g;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Makes an error message safe to return: its first line only (no stack), absolute paths and
 * file URLs cut to their last segment, and every secret and environment value replaced.
 */
export function sanitizeMessage(message: string, secrets: readonly string[] = []): string {
  let text = (message.split('\n')[0] ?? '').trim();
  const hidden = [...secrets, ...Object.values(process.env)]
    .filter((value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
  for (const value of hidden) text = text.replace(new RegExp(escape(value), 'g'), '[redacted]');
  text = text
    .replace(FILE_URL, (_match, last: string) => last || '[path]')
    .replace(WINDOWS_PATH, (_match, last: string) => last || '[path]')
    .replace(POSIX_PATH, (_match, last: string) => last || '[path]');
  if (text.length > MAX_MESSAGE_CHARS) text = `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
  return text;
}
