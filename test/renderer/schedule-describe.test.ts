import { describe, expect, it } from 'vitest';
import { cronProblem, describeTiming, previewNextRun } from '../../src-renderer/features/schedules/describe';
import { nextFire } from '../../src-main/platform/modules/schedules/service';

const cron = (expr: string, timezone = 'Europe/Paris') => describeTiming({ cron: expr, every_minutes: null, timezone });
const every = (n: number) => describeTiming({ cron: null, every_minutes: n, timezone: 'UTC' });

describe('a schedule in words', () => {
  it('says the common cron shapes in words, with the zone, and shows any other expression as itself', () => {
    expect(cron('30 9 * * 1-5')).toBe('Weekdays at 09:30, Europe/Paris');
    expect(cron('0 7 * * *', 'UTC')).toBe('Every day at 07:00, UTC');
    expect(cron('15 18 * * 5')).toBe('Fridays at 18:15, Europe/Paris');
    expect(cron('0 10 * * 0,6')).toBe('Weekends at 10:00, Europe/Paris');
    expect(cron('0 8 1 * *')).toBe('Day 1 of every month at 08:00, Europe/Paris');
    expect(cron('5 * * * *')).toBe('Every hour at :05, Europe/Paris');
    expect(cron('*/15 * * * *')).toBe('Every 15 minutes, Europe/Paris');
    expect(cron('0 9 * 1 *')).toBe('Cron "0 9 * 1 *", Europe/Paris');
  });

  it('says every N minutes in the largest whole unit', () => {
    expect(every(1)).toBe('Every minute');
    expect(every(15)).toBe('Every 15 minutes');
    expect(every(60)).toBe('Every hour');
    expect(every(180)).toBe('Every 3 hours');
    expect(every(90)).toBe('Every 90 minutes');
    expect(every(2880)).toBe('Every 2 days');
  });

  it('names a bad cron expression and previews the same next run the platform computes', () => {
    expect(cronProblem('61 9 * * *', 'UTC')).toMatch(/minute/i);
    expect(cronProblem('', 'UTC')).toMatch(/Type a cron/);
    expect(cronProblem('30 9 * * 1-5', 'Europe/Paris')).toBeNull();
    const now = new Date('2026-11-23T12:00:00Z');
    const t = { cron: '30 9 * * 1-5', every_minutes: null, timezone: 'Europe/Paris' };
    expect(previewNextRun(t, now)?.toISOString()).toBe('2026-11-24T08:30:00.000Z');
    expect(previewNextRun(t, now)!.getTime()).toBe(nextFire({ ...t, created_at: 0 }, now.getTime()));
    expect(previewNextRun({ cron: 'nope', every_minutes: null, timezone: 'UTC' }, now)).toBeNull();
    expect(previewNextRun({ cron: null, every_minutes: 15, timezone: 'UTC' }, now)?.toISOString()).toBe('2026-11-23T12:15:00.000Z');
  });
});
