import type { Locale } from './i18n.js';

/** Formatting of message times in the visitor's language and time zone (`timeZone` only for tests). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(
  language: string,
  options: Intl.DateTimeFormatOptions,
  timeZone?: string,
): Intl.DateTimeFormat {
  const key = `${language}|${timeZone ?? ''}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) formatters.set(key, (found = new Intl.DateTimeFormat(language, { ...options, timeZone })));
  return found;
}

/** The calendar day of an epoch-seconds time, `YYYY-MM-DD`, in the given (or local) zone. */
export function dayKey(epochSeconds: number, timeZone?: string): string {
  return formatter('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }, timeZone).format(
    epochSeconds * 1000,
  );
}

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
}

/** The label of a date separator: Today, Yesterday, or the date (with the year when it is not this year). */
export function dayLabel(epochSeconds: number, now: number, locale: Locale, timeZone?: string): string {
  const day = dayKey(epochSeconds, timeZone);
  const today = dayKey(now, timeZone);
  const gap = daysBetween(day, today);
  if (gap === 0) return locale.strings.today;
  if (gap === 1) return locale.strings.yesterday;
  const sameYear = day.slice(0, 4) === today.slice(0, 4);
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(sameYear ? {} : { year: 'numeric' }),
  };
  return formatter(locale.language, options, timeZone).format(epochSeconds * 1000);
}

export function timeLabel(epochSeconds: number, locale: Locale, timeZone?: string): string {
  return formatter(locale.language, { hour: '2-digit', minute: '2-digit' }, timeZone).format(
    epochSeconds * 1000,
  );
}

/** The time beside a conversation: the clock time today, Yesterday, or a short date. */
export function conversationTime(
  epochSeconds: number,
  now: number,
  locale: Locale,
  timeZone?: string,
): string {
  const gap = daysBetween(dayKey(epochSeconds, timeZone), dayKey(now, timeZone));
  if (gap === 0) return timeLabel(epochSeconds, locale, timeZone);
  if (gap === 1) return locale.strings.yesterday;
  return formatter(locale.language, { day: 'numeric', month: 'short' }, timeZone).format(epochSeconds * 1000);
}

/** ISO 8601 for a `<time datetime>` attribute. */
export function isoTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString();
}
