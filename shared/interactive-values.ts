/**
 * Form value rules that the server and the widget both apply, free of zod so the widget bundle
 * stays small: date/time values and zones, filled-in answers, and interaction goals.
 */
import type { InteractionGoal } from './interactive.js';

/** Submitted values by element id: text for inputs and single choices, lists for checkboxes. */
export type FormValues = Record<string, string | string[]>;

export const DATE_TIME_MODES = ['date', 'time', 'dateTime'] as const;
export type DateTimeMode = (typeof DATE_TIME_MODES)[number];

/** An IANA zone name (`Europe/Paris`, `UTC`) that this runtime's Intl knows; offsets like `+05:30` are not zone names. */
export function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A bound or default of a dateTime element as a comparable number: minutes since the epoch for
 * dates and date-times (`2024-05-01`, `2024-05-01 09:30`, `2024-05-01T09:30:00`), seconds of the
 * day for times (`09:30`). Both bounds are wall-clock times in the element's own zone, so no zone
 * conversion is needed to compare them. `undefined` when the text is not a valid value for the mode.
 */
export function parseDateTimeValue(text: string, mode: DateTimeMode): number | undefined {
  if (mode === 'time') {
    const time = TIME_PATTERN.exec(text);
    if (!time) return undefined;
    const [hours, minutes, seconds] = [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)];
    if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
    return hours * 3600 + minutes * 60 + seconds;
  }
  const date = DATE_PATTERN.exec(text);
  if (!date) return undefined;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const [hours, minutes, seconds] = [Number(date[4] ?? 0), Number(date[5] ?? 0), Number(date[6] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const instant = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
  // Date.UTC rolls 2024-02-30 over to March 1st: a changed day means the date does not exist.
  if (
    instant.getUTCFullYear() !== year ||
    instant.getUTCMonth() !== month - 1 ||
    instant.getUTCDate() !== day
  ) {
    return undefined;
  }
  return instant.getTime() / 1000;
}

/** Whether an answer counts as given: non-blank text, or a list with at least one item. */
export function isFilledValue(value: string | string[] | undefined): boolean {
  return value !== undefined && (Array.isArray(value) ? value.length > 0 : value.trim() !== '');
}

/** Whether the interactions recorded on a message meet its goal. */
export function goalCompleted(
  goal: InteractionGoal | undefined,
  interactions: ReadonlyArray<{ elementId: string }>,
): boolean {
  if (goal === undefined) return false;
  const done = new Set(interactions.map((interaction) => interaction.elementId));
  switch (goal.type) {
    case 'allOf':
      return goal.elementIds.every((id) => done.has(id));
    case 'anyOf':
      return goal.elementIds.some((id) => done.has(id));
    case 'anyAction':
      return done.size > 0;
    default:
      return false;
  }
}
