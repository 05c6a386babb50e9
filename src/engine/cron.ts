/**
 * A small cron matcher for timer pipelines: five fields (minute hour day-of-month month
 * day-of-week) or six with leading seconds, each `*`, `N`, `A-B`, lists and `/step`. Times are
 * evaluated in UTC. Day-of-month and day-of-week combine with OR when both are restricted,
 * as in classic cron.
 */

interface CronField {
  values: Set<number>;
  restricted: boolean;
}

export interface CronSchedule {
  seconds: CronField;
  minutes: CronField;
  hours: CronField;
  days: CronField;
  months: CronField;
  weekdays: CronField;
}

const RANGES: Array<[number, number]> = [
  [0, 59],
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

/** Parse a cron expression; throws with a readable message when it is malformed. */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) {
    throw new Error(`cron expression must have 5 or 6 fields: "${expression}"`);
  }
  const fields = parts.length === 6 ? parts : ['0', ...parts];
  const parsed = fields.map((field, index) => parseField(field, RANGES[index][0], RANGES[index][1], expression));
  const weekdays = parsed[5];
  if (weekdays.values.has(7)) {
    weekdays.values.add(0);
  }
  return { seconds: parsed[0], minutes: parsed[1], hours: parsed[2], days: parsed[3], months: parsed[4], weekdays };
}

function parseField(field: string, min: number, max: number, expression: string): CronField {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [rangeText, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let low = min;
    let high = max;
    if (rangeText !== '*') {
      const [a, b] = rangeText.split('-');
      low = Number(a);
      high = b === undefined ? (stepText === undefined ? low : max) : Number(b);
    }
    if (![low, high, step].every(Number.isInteger) || low < min || high > max || low > high || step < 1) {
      throw new Error(`invalid cron field "${field}" in "${expression}"`);
    }
    for (let value = low; value <= high; value += step) {
      values.add(value);
    }
  }
  return { values, restricted: field !== '*' };
}

/** Whether the schedule fires at this (whole-second) instant. */
export function cronMatches(schedule: CronSchedule, at: Date): boolean {
  const dayMatches = schedule.days.values.has(at.getUTCDate());
  const weekdayMatches = schedule.weekdays.values.has(at.getUTCDay());
  const dayOk =
    schedule.days.restricted && schedule.weekdays.restricted
      ? dayMatches || weekdayMatches
      : dayMatches && weekdayMatches;
  return (
    schedule.seconds.values.has(at.getUTCSeconds()) &&
    schedule.minutes.values.has(at.getUTCMinutes()) &&
    schedule.hours.values.has(at.getUTCHours()) &&
    schedule.months.values.has(at.getUTCMonth() + 1) &&
    dayOk
  );
}

/** Fire times in (after, until], at most `limit` of them (oldest first). */
export function cronFireTimes(schedule: CronSchedule, after: Date, until: Date, limit: number): Date[] {
  const times: Date[] = [];
  let cursor = Math.floor(after.getTime() / 1000) * 1000 + 1000;
  const end = until.getTime();
  // Walk minute by minute when seconds are fixed at 0 (the common 5-field case), else second by second.
  const stepMs = schedule.seconds.values.size === 1 && schedule.seconds.values.has(0) ? 60_000 : 1000;
  if (stepMs === 60_000) {
    cursor = Math.ceil(cursor / 60_000) * 60_000;
  }
  while (cursor <= end && times.length < limit) {
    const at = new Date(cursor);
    if (cronMatches(schedule, at)) {
      times.push(at);
    }
    cursor += stepMs;
  }
  return times;
}
