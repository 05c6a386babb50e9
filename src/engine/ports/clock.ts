/** The clock port: every engine time comes from it, so tests control time. */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
