import { describe, expect, it } from 'vitest';
import type { WeekSchedule } from '../../../shared/notification-settings.js';
import { isTimeZone, scheduledDndEnd } from '../../../server/notifications/schedule.js';

const OFF = { from: 0, to: 2359, dnd: false };
const week = (days: Partial<WeekSchedule>): WeekSchedule => ({
  monday: OFF,
  tuesday: OFF,
  wednesday: OFF,
  thursday: OFF,
  friday: OFF,
  saturday: OFF,
  sunday: OFF,
  ...days,
});

/** Whether a span holds `instant`: it ends later than `instant` (or never). */
const inScheduledDnd = (schedule: WeekSchedule, instant: number, zone: string): boolean =>
  scheduledDndEnd(schedule, instant, zone) !== instant;

/** Monday night 22:00 to Tuesday 07:00. */
const MONDAY_NIGHT = week({ monday: { from: 2200, to: 700, dnd: true } });
/** Office hours on Monday, 09:00 to 17:30. */
const MONDAY_DAY = week({ monday: { from: 900, to: 1730, dnd: true } });
const ALL_MONDAY = week({ monday: { from: 0, to: 2359, dnd: true } });

describe('weekly do-not-disturb schedule', () => {
  const cases = [
    {
      name: 'inside a daytime span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T12:00:00Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: 'at the first minute of a span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T09:00:00Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: 'within the last minute of a span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T17:30:59Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: 'one minute after a span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T17:31:00Z',
      zone: 'UTC',
      dnd: false,
    },
    { name: 'before a span', schedule: MONDAY_DAY, at: '2026-01-05T08:59:00Z', zone: 'UTC', dnd: false },
    { name: 'on another weekday', schedule: MONDAY_DAY, at: '2026-01-06T12:00:00Z', zone: 'UTC', dnd: false },
    {
      name: 'before midnight in a span across midnight',
      schedule: MONDAY_NIGHT,
      at: '2026-01-05T23:30:00Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: "after midnight, on the next day, in the previous day's span",
      schedule: MONDAY_NIGHT,
      at: '2026-01-06T03:00:00Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: 'when a span across midnight has ended',
      schedule: MONDAY_NIGHT,
      at: '2026-01-06T07:01:00Z',
      zone: 'UTC',
      dnd: false,
    },
    {
      name: 'early on the day a span across midnight starts',
      schedule: MONDAY_NIGHT,
      at: '2026-01-05T03:00:00Z',
      zone: 'UTC',
      dnd: false,
    },
    {
      name: 'Sunday night spilling into Monday',
      schedule: week({ sunday: { from: 2300, to: 100, dnd: true } }),
      at: '2026-01-05T00:30:00Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: 'at the last minute of an all-day span',
      schedule: ALL_MONDAY,
      at: '2026-01-05T23:59:30Z',
      zone: 'UTC',
      dnd: true,
    },
    {
      name: 'on a day whose span is switched off',
      schedule: week({ monday: { from: 0, to: 2359, dnd: false } }),
      at: '2026-01-05T12:00:00Z',
      zone: 'UTC',
      dnd: false,
    },
    // 02:00 UTC on Tuesday is Monday 21:00 in New York: before the span starts there.
    {
      name: 'in New York, where it is still Monday evening',
      schedule: MONDAY_NIGHT,
      at: '2026-01-06T02:00:00Z',
      zone: 'America/New_York',
      dnd: false,
    },
    // 04:00 UTC on Tuesday is Monday 23:00 in New York.
    {
      name: 'in New York, late Monday night local time',
      schedule: MONDAY_NIGHT,
      at: '2026-01-06T04:00:00Z',
      zone: 'America/New_York',
      dnd: true,
    },
    // 01:00 UTC on Monday is 10:00 in Tokyo; 09:00 UTC is 18:00 there.
    {
      name: 'in Tokyo, inside the local span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T01:00:00Z',
      zone: 'Asia/Tokyo',
      dnd: true,
    },
    {
      name: 'in Tokyo, after the local span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T09:00:00Z',
      zone: 'Asia/Tokyo',
      dnd: false,
    },
    // India is UTC+05:30: 03:45 UTC is 09:15 local.
    {
      name: 'in a half-hour time zone',
      schedule: MONDAY_DAY,
      at: '2026-01-05T03:45:00Z',
      zone: 'Asia/Kolkata',
      dnd: true,
    },
    {
      name: 'in a half-hour time zone, before the local span',
      schedule: MONDAY_DAY,
      at: '2026-01-05T03:15:00Z',
      zone: 'Asia/Kolkata',
      dnd: false,
    },
  ];

  it.each(cases)('$name: $dnd', ({ schedule, at, zone, dnd }) => {
    expect(inScheduledDnd(schedule, Date.parse(at), zone)).toBe(dnd);
  });

  it('follows daylight saving time: 22:30 local is 03:30 UTC in winter and 02:30 UTC in summer', () => {
    const schedule = week({ friday: { from: 2200, to: 2300, dnd: true } });
    expect(inScheduledDnd(schedule, Date.parse('2026-01-10T03:30:00Z'), 'America/New_York')).toBe(true);
    expect(inScheduledDnd(schedule, Date.parse('2026-07-11T02:30:00Z'), 'America/New_York')).toBe(true);
    expect(inScheduledDnd(schedule, Date.parse('2026-07-11T03:30:00Z'), 'America/New_York')).toBe(false);
  });
});

describe('when a do-not-disturb span ends', () => {
  const endOf = (schedule: WeekSchedule, at: string, zone = 'UTC'): string | undefined => {
    const end = scheduledDndEnd(schedule, Date.parse(at), zone);
    return end === undefined ? undefined : new Date(end).toISOString();
  };

  it('ends the minute after the last minute of the span', () => {
    expect(endOf(MONDAY_DAY, '2026-01-05T12:00:42Z')).toBe('2026-01-05T17:31:00.000Z');
  });

  it('runs past midnight into the next day', () => {
    expect(endOf(MONDAY_NIGHT, '2026-01-05T23:10:00Z')).toBe('2026-01-06T07:01:00.000Z');
  });

  it('runs on through a span that begins where the last one ends', () => {
    const schedule = week({
      monday: { from: 2200, to: 700, dnd: true },
      tuesday: { from: 701, to: 900, dnd: true },
    });
    expect(endOf(schedule, '2026-01-05T23:10:00Z')).toBe('2026-01-06T09:01:00.000Z');
  });

  it("is read in the user's time zone", () => {
    // 09:00-17:30 in Kolkata (UTC+05:30) ends at 12:01 UTC.
    expect(endOf(MONDAY_DAY, '2026-01-05T05:00:00Z', 'Asia/Kolkata')).toBe('2026-01-05T12:01:00.000Z');
  });

  it('lands on the local end across a change to daylight saving time', () => {
    // Saturday 2026-03-07 22:00 to Sunday 12:00 in New York; clocks go forward at 02:00 on Sunday.
    const schedule = week({ saturday: { from: 2200, to: 1159, dnd: true } });
    expect(endOf(schedule, '2026-03-08T04:00:00Z', 'America/New_York')).toBe('2026-03-08T16:00:00.000Z');
  });

  it('is the instant itself outside every span', () => {
    expect(endOf(MONDAY_DAY, '2026-01-05T18:00:00Z')).toBe('2026-01-05T18:00:00.000Z');
  });

  it('never comes for a schedule that covers the whole week', () => {
    const always = { from: 0, to: 2359, dnd: true };
    const schedule = week({
      monday: always,
      tuesday: always,
      wednesday: always,
      thursday: always,
      friday: always,
      saturday: always,
      sunday: always,
    });
    expect(endOf(schedule, '2026-01-05T12:00:00Z')).toBeUndefined();
  });
});

describe('time zone names', () => {
  it.each(['UTC', 'Europe/Paris', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires'])('knows %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  it.each(['Mars/Olympus', 'Europe/Pariss', ''])('refuses %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });
});
