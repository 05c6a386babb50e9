/**
 * The quickstart deployment (config + seeding) and its one-process server for integration tests: a private copy of
 * `examples/quickstart` with its seeded git connection, the server on an ephemeral port, and
 * changes pushed to the seeded repositories with plain git.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadServiceConfig, type ServiceConfig } from '../../src/config/service';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { git } from '../../src/sources/git-cli';
import { seedRepositories } from '../../src/drivers/git/seed';
import type { TestDatabase } from './database';
import { liveTestConfig } from './live';
import { RunCachedToolchain } from './run-cached-toolchain';

type GitConnection = Extract<ServiceConfig['connections'][string], { driver: 'git' }>;

export interface QuickstartDeployment {
  /** The temporary directory holding the copy (and scratch clones). */
  root: string;
  config: ServiceConfig;
  /** The seeded git connection `local`, to adjust before `seed()`. */
  connection: GitConnection;
  /** Create the repositories under the connection's `baseurl`. */
  seed(): Promise<void>;
  /** The bare repository of a project. */
  repository(project: string): string;
}

/** A private copy of the quickstart; its logs are published under `/logs/` of the service. */
export function quickstartDeployment(prefix: string): QuickstartDeployment {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const deployment = path.join(root, 'examples', 'quickstart');
  cpSync(path.resolve(__dirname, '../../examples/quickstart'), deployment, { recursive: true });
  const config = loadServiceConfig(path.join(deployment, 'sluice.yaml'));
  // The server listens on an ephemeral port, so the logs are published under a relative URL of this service.
  config.logs.url = '/logs/';
  const connection = config.connections.local;
  if (connection?.driver !== 'git' || connection.seedFrom === undefined) {
    throw new Error('the quickstart has a seeded git connection "local"');
  }
  const seedFrom = connection.seedFrom;
  return {
    root,
    config,
    connection,
    seed: async () => {
      await seedRepositories(seedFrom, connection.baseurl);
    },
    repository: (project) => path.join(connection.baseurl, `${project}.git`),
  };
}

/** The deployment served by one process on 127.0.0.1 (any free port), with the test authenticators (or `auth`). */
export async function startQuickstartApp(
  config: ServiceConfig,
  database: TestDatabase,
  auth: ServiceConfig['auth'] = liveTestConfig().auth,
): Promise<SluiceApp> {
  const app = buildApp({
    config: { ...config, auth },
    database,
    logger: silentLogger(),
    environment: { PATH: process.env.PATH },
    toolchain: (options) => new RunCachedToolchain(options),
  });
  await app.start(0, '127.0.0.1');
  return app;
}

/**
 * Commit `files` on top of master of `bareRepo` in a scratch clone under `root` and push the
 * commit as change `<number>,<patchset>` (patchset 1 unless given); resolves with its sha.
 */
export async function pushChange(
  root: string,
  bareRepo: string,
  number: number,
  files: Record<string, string>,
  message: string,
  patchset = 1,
): Promise<string> {
  const work = mkdtempSync(path.join(root, 'work-'));
  await git(root, ['clone', '--quiet', bareRepo, work]);
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(path.join(work, file), content);
  }
  await git(work, ['add', '--all']);
  await git(work, [
    '-c',
    'user.name=Quickstart User',
    '-c',
    'user.email=user@example.com',
    'commit',
    '--quiet',
    '-m',
    message,
  ]);
  const ref = `refs/changes/${String(number % 100).padStart(2, '0')}/${number}/${patchset}`;
  await git(work, ['push', '--quiet', 'origin', `HEAD:${ref}`]);
  return (await git(work, ['rev-parse', 'HEAD'])).stdout.trim();
}
