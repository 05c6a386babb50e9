/**
 * Finds what a console client may read for a build: the live log of a build running in this
 * process, the log file of a build running in another executor process followed through the
 * shared log root (docs/operations.md#console-streams-across-processes), the log file of a
 * finished build, or why there is nothing (docs/executor.md#live-console with
 * docs/rest.md#deliberate-differences-from-the-reference: finished builds are replayed).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BuildRequestRepository } from '../store/repositories/build-requests';
import type { ConsoleLine, ConsoleRegistry } from './build-log';
import { followLogFile } from './log-follower';
import { buildLogDir, JOB_OUTPUT_FILE } from './log-paths';

/** A running build's output, followed live (a `BuildLog` of this process, or a followed file). */
export interface LiveConsole {
  lines(fromSeq?: number, signal?: AbortSignal): AsyncGenerator<ConsoleLine[]>;
}

export type ConsoleTarget =
  /** Unknown build, or a build of another tenant. */
  | { kind: 'not-found' }
  /** Requested but not claimed by an executor yet. */
  | { kind: 'not-started' }
  /** Running: follow it live (in this process, or through the shared log root). */
  | { kind: 'live'; log: LiveConsole }
  /** Finished: replay its log file. */
  | { kind: 'finished'; file: string }
  /** Running in another executor process whose log file this process cannot see (log root not shared). */
  | { kind: 'unavailable' };

export interface ConsoleResolverOptions {
  repository: BuildRequestRepository;
  consoles: ConsoleRegistry;
  logsDir: string;
  /** Milliseconds to wait for the log file of a build another process just started (default 5000). */
  fileWaitMs?: number;
  /** Milliseconds between looks at a followed file that has not grown (default 250). */
  followPollMs?: number;
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
    // Running in another executor process: its file, once that process has opened it.
    if (!(await appears(file, options.fileWaitMs ?? 5000))) {
      return { kind: 'unavailable' };
    }
    const ended = async (): Promise<boolean> => (await options.repository.get(buildUuid))?.state !== 'running';
    return {
      kind: 'live',
      log: {
        lines: (fromSeq = 1, signal) => followLogFile(file, fromSeq, { ended, pollMs: options.followPollMs }, signal),
      },
    };
  };
}

/** Whether `file` exists now or within `waitMs` (looked for every 100 ms). */
async function appears(file: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (!existsSync(file)) {
    if (Date.now() >= deadline) {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
