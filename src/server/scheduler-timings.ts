/**
 * The engine's scheduler timings from the service configuration's `scheduler` keys, which are
 * seconds (docs/configuration.md#keys): the poll fallback, the lease and the pass budget
 * (docs/operations.md#takeovers-under-repeated-kills).
 */
import type { ServiceConfig } from '../config/service';

export function schedulerTimings(scheduler: ServiceConfig['scheduler']) {
  return {
    pollIntervalMs: scheduler.pollInterval * 1000,
    leadership: { ttlMs: scheduler.leaseTimeout * 1000 },
    passBudgetMs: scheduler.passBudget * 1000,
  };
}
