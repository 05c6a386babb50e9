/**
 * The launcher loop (engine.md §6.3): each pass records reported images, uploads them, requests
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
import { createRepositories, defaultDrivers, type LauncherContext, type LauncherLogger, type LayoutSource } from './context';
import type { NodeDriver } from './drivers/driver';
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
  uuid?: () => string;
  /** Milliseconds between passes while running. */
  intervalMs?: number;
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
  /** Run one complete pass now (tests drive the launcher with it). */
  runOnce(): Promise<void>;
}

const silent: LauncherLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const BATCH = 100;

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
  const gateway = new LauncherNodeGateway(context);
  const intervalMs = options.intervalMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let current: Promise<void> = Promise.resolve();

  async function revisePriorities(): Promise<void> {
    for (const request of await context.repos.requests.listOpen()) {
      const ahead = quantizeRelativePriority(await context.repos.requests.buildsetsAhead(request));
      if (ahead !== request.relativePriority) {
        await context.repos.requests.update(request.uuid, { relativePriority: ahead }, context.now());
      }
    }
  }

  async function pass(): Promise<void> {
    await images.recordReportedArtifacts();
    await images.performUploads();
    await images.requestMissingImages();
    await revisePriorities();
    // Requests first (they create nodes), then nodes, then requests again to notice ready nodes.
    for (const uuid of await context.repos.requests.openUuids(BATCH)) {
      await processRequest(context, uuid);
    }
    for (const uuid of await context.repos.nodes.actionableUuids(['requested'], BATCH)) {
      await launchNode(context, uuid);
    }
    for (const uuid of await context.repos.requests.openUuids(BATCH)) {
      await processRequest(context, uuid);
    }
    await reclaimOrphans(context);
    await ageNodes(context);
    for (const uuid of await context.repos.nodes.actionableUuids(['failed', 'tempfailed', 'used', 'outdated'], BATCH)) {
      await deleteNode(context, uuid);
    }
    await maintainMinReady(context);
    await images.applyRetention();
    await images.removeDeleted();
  }

  function runOnce(): Promise<void> {
    current = current.then(pass, pass);
    return current;
  }

  function schedule(): void {
    if (!running) {
      return;
    }
    timer = setTimeout(() => {
      runOnce()
        .catch((err: unknown) => context.logger.error({ err }, 'launcher pass failed'))
        .finally(schedule);
    }, intervalMs);
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
      schedule();
    },
    stop: async () => {
      running = false;
      clearTimeout(timer);
      await current.catch(() => undefined);
      context.logger.info({ launcher: id }, 'launcher stopped');
    },
    runOnce,
  };
}
