import { cronFireTimes, cronMatches, parseCron } from '../../src/model/cron';
import { decreasedWindow, increasedWindow, insideWindow, MAX_WINDOW } from '../../src/engine/window';
import type { WindowParams } from '../../src/model/pipeline-state';

describe("cron schedules of timer pipelines (the reference's fields and weekdays)", () => {
  it('matches five-, six- and seven-field expressions in UTC', () => {
    const sixHourly = parseCron('0 */6 * * *');
    expect(cronMatches(sixHourly, new Date('2026-01-01T06:00:00Z'))).toBe(true);
    expect(cronMatches(sixHourly, new Date('2026-01-01T07:00:00Z'))).toBe(false);
    // Day of week 0 is Monday: 0-4 is Monday to Friday.
    const weekdays = parseCron('30 2 * * 0-4');
    expect(cronMatches(weekdays, new Date('2026-01-05T02:30:00Z'))).toBe(true); // Monday
    expect(cronMatches(weekdays, new Date('2026-01-09T02:30:00Z'))).toBe(true); // Friday
    expect(cronMatches(weekdays, new Date('2026-01-04T02:30:00Z'))).toBe(false); // Sunday
    expect(cronMatches(parseCron('0 0 * * sat,sun'), new Date('2026-01-04T00:00:00Z'))).toBe(true);
    // The sixth field is the second, the seventh a jitter (accepted, fire times stay exact).
    const seconds = parseCron('* * * * * 15');
    expect(cronMatches(seconds, new Date('2026-01-01T00:00:15Z'))).toBe(true);
    expect(cronMatches(seconds, new Date('2026-01-01T00:15:00Z'))).toBe(false);
    expect(cronMatches(parseCron('0 3 * * * 0 30'), new Date('2026-01-01T03:00:00Z'))).toBe(true);
  });

  it('requires day of month and day of week both when both are restricted', () => {
    const schedule = parseCron('0 0 1 * 6'); // the 1st, when it is a Sunday
    expect(cronMatches(schedule, new Date('2026-01-01T00:00:00Z'))).toBe(false); // 1st (Thursday)
    expect(cronMatches(schedule, new Date('2026-01-04T00:00:00Z'))).toBe(false); // Sunday
    expect(cronMatches(schedule, new Date('2026-02-01T00:00:00Z'))).toBe(true); // Sunday the 1st
  });

  it('lists fire times in an interval and rejects malformed expressions', () => {
    const times = cronFireTimes(
      parseCron('0 */6 * * *'),
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-01-01T13:00:00Z'),
      10,
    );
    expect(times.map((time) => time.toISOString())).toEqual(['2026-01-01T06:00:00.000Z', '2026-01-01T12:00:00.000Z']);
    expect(() => parseCron('* * *')).toThrow('cron expression must have 5 to 7 fields');
    expect(() => parseCron('61 * * * *')).toThrow('invalid cron expression "61 * * * *"');
    expect(() => parseCron('0 0 * * 7')).toThrow('day of week "7" is not 0-6 or mon-sun');
  });
});

describe('window arithmetic', () => {
  const params = (overrides: Partial<WindowParams> = {}): WindowParams => ({
    window: 20,
    floor: 3,
    ceiling: null,
    increaseType: 'linear',
    increaseFactor: 1,
    decreaseType: 'exponential',
    decreaseFactor: 2,
    ...overrides,
  });

  it('grows linearly or exponentially up to the ceiling', () => {
    expect(increasedWindow(5, params())).toBe(6);
    expect(increasedWindow(5, params({ ceiling: 5 }))).toBe(5);
    expect(increasedWindow(5, params({ increaseType: 'exponential', increaseFactor: 2, ceiling: 8 }))).toBe(8);
  });

  it('stays within what a queue stores when it grows without a ceiling', () => {
    const exponential = params({ increaseType: 'exponential', increaseFactor: 2, ceiling: null });
    let window = 3;
    for (let merge = 0; merge < 40; merge += 1) {
      window = increasedWindow(window, exponential);
    }
    expect(window).toBe(MAX_WINDOW);
    expect(increasedWindow(MAX_WINDOW, params({ ceiling: null }))).toBe(MAX_WINDOW);
  });

  it('shrinks exponentially or linearly down to the floor', () => {
    expect(decreasedWindow(20, params())).toBe(10);
    expect(decreasedWindow(5, params())).toBe(3);
    expect(decreasedWindow(7, params({ decreaseType: 'linear', decreaseFactor: 3 }))).toBe(4);
  });

  it('treats window 0 as unlimited', () => {
    expect(increasedWindow(0, params())).toBe(0);
    expect(decreasedWindow(0, params())).toBe(0);
    expect(insideWindow(1000, 0)).toBe(true);
    expect(insideWindow(3, 3)).toBe(false);
  });
});
