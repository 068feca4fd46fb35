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

/** Whether `instant` (epoch ms) falls in a do-not-disturb span of the schedule in `timeZone`. */
export function inScheduledDnd(schedule: WeekSchedule, instant: number, timeZone: string): boolean {
  // Most schedules have no span switched on; they need no local time.
  if (!Object.values(schedule).some((day) => day.dnd)) return false;
  const { weekday, minute } = localTime(instant, timeZone);
  const today = schedule[WEEKDAYS[weekday] as Weekday];
  const yesterday = schedule[WEEKDAYS[(weekday + 6) % 7] as Weekday];
  return (today.dnd && coversToday(today, minute)) || (yesterday.dnd && spillsIntoToday(yesterday, minute));
}
