/**
 * Service configuration sections about running Sluice (docs/operations.md): component
 * heartbeats and the reclaim of lost work, and the metrics endpoint.
 */
import { z } from 'zod';

export const componentsSection = z
  .object({
    /** Seconds between two heartbeats of this process's components (docs/operations.md#lost-work). */
    heartbeatInterval: z.number().positive().default(30),
    /** Seconds without a heartbeat after which a component is dead and its work is reclaimed. */
    expiry: z.number().positive().default(90),
  })
  .strict()
  .refine((c) => c.expiry >= 2 * c.heartbeatInterval, {
    message: 'must be at least twice heartbeatInterval',
    path: ['expiry'],
  })
  .default({ heartbeatInterval: 30, expiry: 90 });

export const metricsSection = z
  .object({
    /** Serve `/metrics` in the Prometheus text format (docs/operations.md#metrics). */
    enabled: z.boolean().default(true),
  })
  .strict()
  .default({ enabled: true });
