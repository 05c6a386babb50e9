/**
 * The seeded generator of chaos runs: the fuzz tests' mulberry32 source (test/helpers/fuzz.ts)
 * that also remembers its seed, so the same seed gives the same sequence of decisions
 * (docs/operations.md#chaos-runs).
 */
import { Random } from '../fuzz';

export class SeededRandom extends Random {
  constructor(readonly seed: number) {
    super(seed);
  }

  /** An integer in [low, high]. */
  int(low: number, high: number): number {
    return low + this.below(high - low + 1);
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
