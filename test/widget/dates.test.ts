import { describe, expect, it } from 'vitest';
import { conversationTime, dayKey, dayLabel } from '../../widget/dates.js';
import { ENGLISH } from '../../widget/i18n.js';

const zone = 'Europe/Paris';
const at = (iso: string) => Date.parse(iso) / 1000;

describe('message dates', () => {
  it('group messages by calendar day in the visitor zone', () => {
    expect(dayKey(at('2030-03-10T23:30:00Z'), zone)).toBe('2030-03-11');
  });

  it('call today and yesterday by name', () => {
    const now = at('2030-03-11T12:00:00Z');
    expect(dayLabel(at('2030-03-11T08:00:00Z'), now, ENGLISH, zone)).toBe('Today');
    expect(dayLabel(at('2030-03-10T08:00:00Z'), now, ENGLISH, zone)).toBe('Yesterday');
  });

  it('spell out older days, with the year only when it is not this year', () => {
    const now = at('2030-03-11T12:00:00Z');
    expect(dayLabel(at('2030-03-01T08:00:00Z'), now, ENGLISH, zone)).toBe('Friday, March 1');
    expect(dayLabel(at('2029-12-24T08:00:00Z'), now, ENGLISH, zone)).toBe('Monday, December 24, 2029');
  });

  it('show the clock time of today in the conversation list and a short date before', () => {
    const now = at('2030-03-11T12:00:00Z');
    expect(conversationTime(at('2030-03-11T08:05:00Z'), now, ENGLISH, zone)).toMatch(/09:05/);
    expect(conversationTime(at('2030-03-01T08:05:00Z'), now, ENGLISH, zone)).toBe('Mar 1');
  });
});
