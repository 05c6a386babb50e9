/**
 * Cron schedules of timer pipelines, read as the reference reads a timer's `time` (its cron
 * trigger; docs/project-configuration.md, the `timer` trigger): `minute hour day month day-of-week
 * [second [jitter]]`, in UTC. Every field must match (a restricted day of month AND a restricted
 * day of week); day of week 0 is Monday, 6 Sunday, or the names mon to sun. The jitter is
 * accepted and not applied: fire times are exact. Parsing and matching are croner's; this module
 * only puts the fields in croner's order and numbers the weekdays as croner does (0 Sunday).
 */
import { Cron } from 'croner';

export interface CronSchedule {
  readonly expression: string;
  readonly cron: Cron;
}

/** The reference's weekday names, Monday first: the index is its number. */
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A malformed cron expression; `detail` says what is wrong without repeating the expression. */
export class CronSpecError extends Error {
  constructor(
    readonly expression: string,
    readonly detail: string,
  ) {
    super(`invalid cron expression "${expression}": ${detail}`);
    this.name = 'CronSpecError';
  }
}

/** Bounds of the numeric fields, in the reference's order (the day of week is checked by sundayFirst). */
const FIELD_RANGES: Array<{ name: string; low: number; high: number }> = [
  { name: 'minute', low: 0, high: 59 },
  { name: 'hour', low: 0, high: 23 },
  { name: 'day of month', low: 1, high: 31 },
  { name: 'month', low: 1, high: 12 },
];

/** Parse a timer's cron expression; throws a CronSpecError saying what is malformed. */
export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length < 5 || parts.length > 7) {
    throw new CronSpecError(expression, `cron expression must have 5 to 7 fields, not ${parts.length}`);
  }
  const [minute, hour, day, month, weekday, second = '0'] = parts;
  const invalid = (detail: string): Error => new CronSpecError(expression, detail);
  if (parts.length === 7 && !/^\d+$/.test(parts[6])) {
    throw invalid(`the jitter "${parts[6]}" is not a number of seconds`);
  }
  FIELD_RANGES.forEach((range, index) => checkRange(parts[index], range, invalid));
  checkRange(second, { name: 'second', low: 0, high: 59 }, invalid);
  const pattern = [second, minute, hour, day, month, sundayFirst(weekday, invalid)].join(' ');
  try {
    return { expression, cron: new Cron(pattern, { timezone: 'UTC', domAndDow: true, mode: '6-part' }) };
  } catch (err) {
    throw invalid(cronerDetail(err));
  }
}

/** croner's message without its prefix and its own field numbering. */
function cronerDetail(err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).replace(/^CronPattern: /, '');
  const illegal = /^configuration entry \d+ \((.*)\) contains illegal characters\.?$/.exec(message);
  return illegal === null ? message : `"${illegal[1]}" is no value of its field`;
}

/**
 * Numbers of a field outside its range, named in the reference's terms (croner's own messages
 * count days and months from 0); names and syntax are left to croner.
 */
function checkRange(
  field: string,
  range: { name: string; low: number; high: number },
  invalid: (detail: string) => Error,
) {
  for (const part of field.split(',')) {
    const [values] = part.split('/');
    for (const value of values.split('-')) {
      if (/^\d+$/.test(value) && (Number(value) < range.low || Number(value) > range.high)) {
        throw invalid(`${range.name} ${value} is not within ${range.low}-${range.high}`);
      }
    }
  }
}

/** The day-of-week field with Monday as 0 (the reference's) as croner reads it (Sunday as 0). */
function sundayFirst(field: string, invalid: (detail: string) => Error): string {
  if (field === '*' || field === '?') {
    return '*';
  }
  const number = (text: string): number => {
    const named = WEEKDAYS.indexOf(text.toLowerCase());
    const value = named >= 0 ? named : /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(value >= 0 && value <= 6)) {
      throw invalid(`day of week "${text}" is not 0-6 or mon-sun`);
    }
    return value;
  };
  const days = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText, extra] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (extra !== undefined || !Number.isInteger(step) || step < 1) {
      throw invalid(`day of week "${field}"`);
    }
    const [low, high] =
      range === '*' ? [0, 6] : range.includes('-') ? range.split('-').map(number) : [number(range), number(range)];
    if (high === undefined || low > high || (range !== '*' && !range.includes('-') && stepText !== undefined)) {
      throw invalid(`day of week "${field}"`);
    }
    for (let value = low; value <= high; value += step) {
      days.add((value + 1) % 7);
    }
  }
  return [...days].sort((a, b) => a - b).join(',');
}

/** Whether the schedule fires at this (whole-second) instant. */
export function cronMatches(schedule: CronSchedule, at: Date): boolean {
  return schedule.cron.match(at);
}

/** Fire times in (after, until], at most `limit` of them (oldest first). */
export function cronFireTimes(schedule: CronSchedule, after: Date, until: Date, limit: number): Date[] {
  const times: Date[] = [];
  let next = schedule.cron.nextRun(after);
  while (next !== null && next.getTime() <= until.getTime() && times.length < limit) {
    times.push(next);
    next = schedule.cron.nextRun(next);
  }
  return times;
}
