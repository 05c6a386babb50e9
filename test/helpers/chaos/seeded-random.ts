/**
 * A small seeded pseudo-random generator (mulberry32) for chaos runs: the same seed gives the
 * same sequence of decisions (docs/operations.md#chaos-runs).
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) {
      throw new Error('pick from an empty list');
    }
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/** A seed from the environment (`SLUICE_CHAOS_SEED`) or a fresh one. */
export function chaosSeed(): number {
  const fromEnv = process.env.SLUICE_CHAOS_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv);
    if (!Number.isInteger(seed) || seed < 0) {
      throw new Error(`SLUICE_CHAOS_SEED must be a non-negative integer, not ${JSON.stringify(fromEnv)}`);
    }
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}
