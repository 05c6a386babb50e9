/**
 * Service configuration sections about running Sluice (docs/operations.md): the roles a process
 * runs, component heartbeats and the reclaim of lost work, the metrics endpoint and the executor.
 */
import { z } from 'zod';
import { ROLE_NAMES } from '../model/roles';

/** The roles `sluice serve` runs without `--roles` (docs/operations.md#roles). */
export const rolesKey = z
  .array(z.enum(ROLE_NAMES))
  .min(1, 'name at least one role')
  .refine((roles) => new Set(roles).size === roles.length, 'a role is named twice')
  .default([...ROLE_NAMES]);

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

/** The build worker of a process running the `executor` role (docs/configuration.md#keys, `executor.*`). */
export const executorSection = z
  .object({
    /** Builds this executor runs at the same time. */
    slots: z.number().int().min(1).max(256).default(2),
    /** Directory of build workspaces (`<workRoot>/<build uuid>/`); default `<dataDir>/executor/builds`. */
    workRoot: z.string().min(1).optional(),
    /** Keep a build's workspace after it ended (debugging; they are never removed then). */
    keepWorkspaces: z.boolean().default(false),
    /** Seconds between the executor's looks for new build requests. */
    pollInterval: z.number().min(0.05).max(60).default(1),
    /** Seconds a canceled or timed-out step gets after SIGTERM before SIGKILL. */
    killGracePeriod: z.number().min(0).max(600).default(0.5),
    /**
     * How untrusted playbooks run (docs/executor.md#untrusted-playbooks): `bwrap` (in the
     * bubblewrap sandbox; they end ERROR where it cannot start) or `none` (unrestricted).
     */
    sandbox: z.enum(['bwrap', 'none']).default('bwrap'),
  })
  .strict()
  .default({ slots: 2, keepWorkspaces: false, pollInterval: 1, killGracePeriod: 0.5, sandbox: 'bwrap' });

export type ExecutorSettings = z.infer<typeof executorSection>;
