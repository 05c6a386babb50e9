/**
 * The launcher loop (docs/launcher.md#wiring): each pass records reported images, uploads them, requests
 * missing image builds, revises relative priorities, processes open nodeset requests in priority
 * order, launches requested nodes, ages ready and held nodes, keeps min-ready pools and deletes
 * nodes and images no longer needed. All coordination is in the store (row locks with
 * `FOR UPDATE SKIP LOCKED`), so several launcher processes may run side by side.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { ServiceConfig } from '../config/service';
import { quantizeRelativePriority } from '../model/launcher';
import {
  createRepositories,
  defaultDrivers,
  type LauncherContext,
  type LauncherLogger,
  type LayoutSource,
} from './context';
import type { NodeDriver } from './drivers/driver';
import type { TimerClock } from '../engine/ports/clock';
import { PeriodicTask } from '../engine/ports/periodic-task';
import { ImageManager } from './image-manager';
import { LauncherNodeGateway } from './node-gateway';
import { ageNodes, deleteNode, launchNode, maintainMinReady, reclaimOrphans } from './node-processor';
import type { LauncherDriver } from './providers';
import { processRequest } from './request-processor';

export interface LauncherOptions {
  config: Pick<ServiceConfig, 'connections' | 'dataDir'>;
  knex: Knex;
  layouts: LayoutSource;
  logger?: LauncherLogger;
  /** Injectable clock. */
  now?: () => Date;
  /** Runs the loop of passes (src/engine/ports/periodic-task.ts); the system clock by default. */
  timers?: TimerClock;
  uuid?: () => string;
  /** Milliseconds between passes while idle (wake-ups and passes that changed something run sooner). */
  intervalMs?: number;
  /** Called after a pass committed a nodes-provisioned result event for a tenant (wake its scheduler). */
  onResult?: (tenant: string) => void;
  /** Called after the gateway stored a request or a change the launcher loop acts on (wake launchers elsewhere). */
  onRequested?: () => void;
  /** Identifies this launcher in lock holders; default `<hostname>-<pid>-<random>`. */
  id?: string;
  drivers?: Partial<Record<LauncherDriver, NodeDriver>>;
}

export interface Launcher {
  readonly id: string;
  readonly context: LauncherContext;
  /** The engine's NodeGateway backed by this launcher's store. */
  readonly gateway: LauncherNodeGateway;
  start(): void;
  stop(): Promise<void>;
  /** Ask for a pass soon (a request arrived, nodes came back); the gateway calls it. */
  wake(): void;
  /** Run one complete pass now (tests drive the launcher with it). */
  runOnce(): Promise<void>;
}

const silent: LauncherLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const BATCH = 100;
/** Passes run back to back while each changes something (a returned node freeing quota needs two). */
const MAX_FOLLOW_UPS = 5;
/** How long the change log of nodes and requests is kept, and how often it is pruned (docs/live.md#launcher-feeds). */
const CHANGE_LOG_KEEP_SECONDS = 3600;
const CHANGE_LOG_PRUNE_EVERY_MS = 60_000;

/** Node and request counts by state: a pass that changes them may have unblocked more work. */
async function stateSummary(knex: Knex): Promise<string> {
  const counts = async (table: string): Promise<Array<[string, number]>> => {
    const rows = (await knex(table).select('state').count({ n: '*' }).groupBy('state').orderBy('state')) as Array<{
      state: string;
      n: string | number;
    }>;
    return rows.map((row) => [row.state, Number(row.n)]);
  };
  return JSON.stringify([await counts('nodes'), await counts('nodeset_requests')]);
}

/** Build a launcher; `start()` runs passes every `intervalMs` until `stop()`. */
export function createLauncher(options: LauncherOptions): Launcher {
  const id = options.id ?? `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const context: LauncherContext = {
    knex: options.knex,
    config: options.config,
    layouts: options.layouts,
    holder: id,
    now: options.now ?? (() => new Date()),
    uuid: options.uuid ?? (() => randomUUID().replace(/-/g, '')),
    logger: options.logger ?? silent,
    repos: createRepositories(options.knex),
    drivers: { ...defaultDrivers(), ...options.drivers },
  };
  const images = new ImageManager(context);
  const gateway = new LauncherNodeGateway(context, () => {
    wake();
    options.onRequested?.();
  });
  let running = false;
  let followUps = 0;
  let current: Promise<boolean> = Promise.resolve(false);

  async function revisePriorities(): Promise<void> {
    for (const request of await context.repos.requests.listOpen()) {
      const ahead = quantizeRelativePriority(await context.repos.requests.buildsetsAhead(request));
      if (ahead !== request.relativePriority) {
        await context.repos.requests.update(request.uuid, { relativePriority: ahead }, context.now());
      }
    }
  }

  async function processRequests(): Promise<void> {
    for (const uuid of await context.repos.requests.openUuids(BATCH)) {
      const settled = await processRequest(context, uuid);
      if (settled !== null) {
        options.onResult?.(settled);
      }
    }
  }

  let recovered = false;
  let lastPrune = -Infinity;

  async function pruneChangeLog(): Promise<void> {
    const now = context.now().getTime();
    if (now - lastPrune >= CHANGE_LOG_PRUNE_EVERY_MS) {
      lastPrune = now;
      await context.repos.changes.pruneOlderThan(CHANGE_LOG_KEEP_SECONDS);
    }
  }

  /** One pass; true when it changed node or request states. */
  async function pass(): Promise<boolean> {
    const before = await stateSummary(context.knex);
    if (!recovered) {
      // The first pass of this launcher picks up what a crashed one left behind.
      await images.recoverAbandonedUploads();
      recovered = true;
    }
    await images.recordReportedArtifacts();
    await images.performUploads();
    await images.requestMissingImages();
    await revisePriorities();
    // Requests first (they create nodes), then nodes, then requests again to notice ready nodes.
    await processRequests();
    for (const uuid of await context.repos.nodes.actionableUuids(['requested'], BATCH)) {
      await launchNode(context, uuid);
    }
    await processRequests();
    await reclaimOrphans(context);
    await ageNodes(context);
    for (const uuid of await context.repos.nodes.actionableUuids(['failed', 'tempfailed', 'used', 'outdated'], BATCH)) {
      await deleteNode(context, uuid);
    }
    await maintainMinReady(context);
    await images.applyRetention();
    await images.removeDeleted();
    await pruneChangeLog();
    return (await stateSummary(context.knex)) !== before;
  }

  function runPass(): Promise<boolean> {
    current = current.then(pass, pass);
    return current;
  }

  // A wake during a pass gives one more pass right after it; so does a pass that changed something (bounded).
  const task = new PeriodicTask({
    name: 'launcher',
    intervalMs: options.intervalMs ?? 1000,
    tick: async () => {
      let changed = false;
      try {
        changed = await runPass();
      } catch (err) {
        context.logger.error({ err }, 'launcher pass failed');
      }
      followUps = changed && followUps < MAX_FOLLOW_UPS ? followUps + 1 : 0;
      if (followUps > 0) {
        task.wake();
      }
    },
    onError: (err) => context.logger.error({ err }, 'launcher pass failed'),
    clock: options.timers,
    // The pass under way ends before the database closes.
    stopWaitMs: null,
  });

  /** A pass soon, while the launcher runs (a process without the launcher role only stores requests). */
  function wake(): void {
    if (running) {
      task.wake();
    }
  }

  return {
    id,
    context,
    gateway,
    start: () => {
      if (running) {
        return;
      }
      running = true;
      context.logger.info({ launcher: id }, 'launcher started');
      task.start(0);
    },
    stop: async () => {
      running = false;
      await task.stop();
      await current.catch(() => undefined);
      context.logger.info({ launcher: id }, 'launcher stopped');
    },
    wake,
    runOnce: async () => {
      await runPass();
    },
  };
}
