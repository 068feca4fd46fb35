import type { DaySchedule, WeekSchedule } from '../../shared/notification-settings.js';

/**
 * The weekly do-not-disturb schedule, read in the user's time zone. A day's span runs from `from`
 * to `to` (HHMM, both minutes included); when `from` is later than `to` it runs past midnight
 * into the next day, so Monday 2200-0700 also covers Tuesday until 07:00.
 */

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
type Weekday = (typeof WEEKDAYS)[number];

interface LocalTime {
  weekday: number;
  /** Minutes since local midnight. */
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows the IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

function localTime(instant: number, timeZone: string): LocalTime {
  let weekday = 0;
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'weekday') weekday = WEEKDAYS.indexOf(part.value.toLowerCase() as Weekday);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { weekday, minute: hour * 60 + minute };
}

const minutesOf = (clock: number): number => Math.floor(clock / 100) * 60 + (clock % 100);

function coversToday(day: DaySchedule, minute: number): boolean {
  const from = minutesOf(day.from);
  const to = minutesOf(day.to);
  return from <= to ? minute >= from && minute <= to : minute >= from;
}

function spillsIntoToday(yesterday: DaySchedule, minute: number): boolean {
  const from = minutesOf(yesterday.from);
  const to = minutesOf(yesterday.to);
  return from > to && minute <= to;
}

function covers(schedule: WeekSchedule, { weekday, minute }: LocalTime): boolean {
  const today = schedule[WEEKDAYS[weekday] as Weekday];
  const yesterday = schedule[WEEKDAYS[(weekday + 6) % 7] as Weekday];
  return (today.dnd && coversToday(today, minute)) || (yesterday.dnd && spillsIntoToday(yesterday, minute));
}

/** Most schedules have no span switched on; they need no local time. */
const anySpan = (schedule: WeekSchedule): boolean => Object.values(schedule).some((day) => day.dnd);

const MINUTE_MS = 60_000;
const WEEK_MINUTES = 7 * 1440;

/**
 * When the do-not-disturb span holding `instant` ends: the first minute after it that no span
 * covers, in `timeZone` (spans that meet, like Monday 2200-0700 and Tuesday 0700-0900, run on).
 * `instant` itself when it is outside every span; undefined when the schedule covers the whole week.
 */
export function scheduledDndEnd(
  schedule: WeekSchedule,
  instant: number,
  timeZone: string,
): number | undefined {
  if (!anySpan(schedule)) return instant;
  let at = instant;
  // The first free local minute is found in local time, then placed at the instant that shows it:
  // a daylight-saving change on the way moves the local clock against UTC, so the placement is
  // corrected by the difference and checked again.
  for (let check = 0; check < 3; check += 1) {
    const start = localTime(at, timeZone);
    if (!covers(schedule, start)) return at;
    let minutes = 1;
    let free: LocalTime | undefined;
    for (; minutes <= WEEK_MINUTES && free === undefined; minutes += 1) {
      const total = start.minute + minutes;
      const local = { weekday: (start.weekday + Math.floor(total / 1440)) % 7, minute: total % 1440 };
      if (!covers(schedule, local)) free = local;
    }
    if (free === undefined) return undefined;
    at = Math.floor(at / MINUTE_MS) * MINUTE_MS + (minutes - 1) * MINUTE_MS;
    const shown = localTime(at, timeZone);
    const drift = weekMinute(shown) - weekMinute(free);
    // Normalised to the shorter way round the week: a change is an hour or two, never days.
    const correction = ((drift + WEEK_MINUTES * 1.5) % WEEK_MINUTES) - WEEK_MINUTES / 2;
    at -= correction * MINUTE_MS;
  }
  return at;
}

const weekMinute = ({ weekday, minute }: LocalTime): number => weekday * 1440 + minute;
