/** How the analytics page writes its numbers, and the shape of one answer. */
import type { TenantAnalyticsQuery } from '../generated/graphql';

export type AnalyticsData = Extract<
  NonNullable<Extract<TenantAnalyticsQuery['tenant'], { __typename: 'Tenant' }>['analytics']>,
  { __typename: 'Analytics' }
>;

/** Series colours, readable on the light and the dark scheme. */
export const COLORS = ['#2f81f7', '#e5534b', '#c69026', '#8957e5', '#2da44e', '#db61a2', '#768390'];

/** Seconds as short text: "45 s", "2 min 25 s", "1 h 30 min" (rounded to the second, then the minute past an hour). */
export function shortSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 90) {
    return `${whole} s`;
  }
  if (whole < 90 * 60) {
    const s = whole % 60;
    return `${Math.floor(whole / 60)} min${s === 0 ? '' : ` ${s} s`}`;
  }
  const minutes = Math.round(whole / 60);
  const m = minutes % 60;
  return `${Math.floor(minutes / 60)} h${m === 0 ? '' : ` ${m} min`}`;
}

/** Seconds for an axis: "45 s", "2.5 min", "1.5 h". */
export function axisSeconds(seconds: number): string {
  if (seconds < 90) {
    return `${Number(seconds.toFixed(1))} s`;
  }
  return seconds < 90 * 60 ? `${Number((seconds / 60).toFixed(1))} min` : `${Number((seconds / 3600).toFixed(1))} h`;
}

/** A share as a percentage with at most one decimal. */
export const percent = (share: number): string => `${Number((share * 100).toFixed(1))}%`;

/** A count or a mean with at most two decimals. */
export const count = (value: number): string => String(Number(value.toFixed(2)));
