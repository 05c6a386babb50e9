/**
 * Finds what a console client may read for a build: the live log of a build running in this
 * process, the log file of a finished build, or why there is nothing (docs/executor.md#live-console with
 * docs/rest.md#deliberate-differences-from-the-reference: finished builds are replayed).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BuildRequestRepository } from '../store/repositories/build-requests';
import type { BuildLog, ConsoleRegistry } from './build-log';
import { buildLogDir, JOB_OUTPUT_FILE } from './log-paths';

export type ConsoleTarget =
  /** Unknown build, or a build of another tenant. */
  | { kind: 'not-found' }
  /** Requested but not claimed by an executor yet. */
  | { kind: 'not-started' }
  /** Running in this process: follow it live. */
  | { kind: 'live'; log: BuildLog }
  /** Finished: replay its log file. */
  | { kind: 'finished'; file: string }
  /** Running in another executor process (no stream available here). */
  | { kind: 'unavailable' };

export interface ConsoleResolverOptions {
  repository: BuildRequestRepository;
  consoles: ConsoleRegistry;
  logsDir: string;
}

/** `resolveBuild` for `attachConsoleStream` backed by the build requests and the live registry. */
export function createConsoleResolver(
  options: ConsoleResolverOptions,
): (tenant: string, buildUuid: string) => Promise<ConsoleTarget> {
  return async (tenant, buildUuid) => {
    if (!/^[A-Za-z0-9-]{2,64}$/.test(buildUuid)) {
      return { kind: 'not-found' };
    }
    const request = await options.repository.get(buildUuid);
    if (!request || request.tenant !== tenant) {
      return { kind: 'not-found' };
    }
    if (request.state === 'requested') {
      return { kind: 'not-started' };
    }
    const live = options.consoles.get(buildUuid);
    if (live) {
      return { kind: 'live', log: live };
    }
    const file = path.join(buildLogDir(options.logsDir, request.tenant, buildUuid), JOB_OUTPUT_FILE);
    // A paused build whose worker is gone (restarted) has its log so far on disk.
    if (request.state === 'completed' || request.state === 'paused') {
      return existsSync(file) ? { kind: 'finished', file } : { kind: 'not-found' };
    }
    return { kind: 'unavailable' };
  };
}
