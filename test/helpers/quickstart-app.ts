/**
 * The quickstart deployment in one `buildApp()` process (engine, executor, git driver, API and
 * log server), for tests that need real builds: a private copy of `examples/quickstart` with its
 * repositories seeded, the live-test HS256
 * authenticator (`adminToken`), helpers to push changes with plain git, to call the API and to
 * wait for item reports. As in `npm start`, `logs.url` is not set: the logs are served under
 * `/logs/` and each build's `log_url` is absolute, on the address the server listens on.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadServiceConfig, type ServiceConfig } from '../../src/config/service';
import type { EngineDelta } from '../../src/engine/event-bus';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { silentLogger } from '../../src/server/logger';
import { seedRepositories } from '../../src/drivers/git/seed';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import { createTestDatabase, type TestDatabase } from './database';
import { adminToken, liveTestConfig } from './live';
import { pushChange } from './quickstart-deployment';
import { RunCachedToolchain } from './run-cached-toolchain';

export const QUICKSTART_TENANT = 'example';
export const QUICKSTART_PROJECT = 'example/hello';

export interface QuickstartApp {
  root: string;
  config: ServiceConfig;
  database: TestDatabase;
  app: SluiceApp;
  /** The bare repository of example/hello. */
  bareRepo: string;
  /** Base URL of the server (`http://127.0.0.1:<port>`). */
  url(): string;
  /** A token of a tenant admin of `example`. */
  token(): string;
  /** Commit `files` on master in a fresh clone and push the commit as change `<number>,1`; resolves with its sha. */
  pushChange(number: number, files: Record<string, string>, message: string): Promise<string>;
  /** Wait for the first engine delta (of tenant `example`) after the first `from` that matches. */
  waitForDelta(from: number, matches: (delta: EngineDelta) => boolean): Promise<EngineDelta>;
  /** Wait for the first report of an item in `pipeline` after the first `from` deltas. */
  waitForReport(pipeline: string, from: number): Promise<EngineDelta>;
  /** How many engine deltas were seen so far: a `from` for the waits. */
  deltaCount(): number;
  stop(): Promise<void>;
}

export interface QuickstartAppOptions {
  /** Files of example/hello replaced or added before the repositories are seeded (path -> content; scripts are executable). */
  projectFiles?: Record<string, string>;
  /** Files of the deployment (path relative to it -> content) replaced or added before it is read: the tenant file, other projects. */
  deploymentFiles?: Record<string, string>;
  /** Changes to the service configuration before the server starts. */
  configure?: (config: ServiceConfig) => void;
}

/** Start the quickstart in-process on an ephemeral port (git polling effectively off: tests poll). */
export async function startQuickstartApp(prefix: string, options: QuickstartAppOptions = {}): Promise<QuickstartApp> {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const deployment = path.join(root, 'examples', 'quickstart');
  cpSync(path.resolve(__dirname, '../../examples/quickstart'), deployment, { recursive: true });
  const files = {
    ...Object.fromEntries(
      Object.entries(options.projectFiles ?? {}).map(([file, content]) => [
        path.join('repos', QUICKSTART_PROJECT, file),
        content,
      ]),
    ),
    ...options.deploymentFiles,
  };
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(deployment, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content, { mode: file.endsWith('.sh') ? 0o755 : 0o644 });
  }
  const config = loadServiceConfig(path.join(deployment, 'sluice.yaml'));
  options.configure?.(config);
  const connection = config.connections.local;
  if (connection?.driver !== 'git' || connection.seedFrom === undefined) {
    throw new Error('the quickstart has a seeded git connection "local"');
  }
  connection.pollInterval = 3600;
  await seedRepositories(connection.seedFrom, connection.baseurl);
  const bareRepo = path.join(connection.baseurl, `${QUICKSTART_PROJECT}.git`);
  const database = await createTestDatabase({ migrate: false });
  const app = buildApp({
    config: { ...config, auth: liveTestConfig().auth },
    database,
    logger: silentLogger(),
    environment: { PATH: process.env.PATH },
    toolchain: (options) => new RunCachedToolchain(options),
  });
  await app.start(0, '127.0.0.1');
  const deltas: EngineDelta[] = [];
  const waiting: Array<() => void> = [];
  engineEventBusOver(app.bus, () => undefined).subscribe(QUICKSTART_TENANT, (delta) => {
    deltas.push(delta);
    waiting.splice(0).forEach((wake) => wake());
  });
  const waitForDelta = async (from: number, matches: (delta: EngineDelta) => boolean): Promise<EngineDelta> => {
    for (;;) {
      const found = deltas.slice(from).find(matches);
      if (found) {
        return found;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };

  return {
    root,
    config,
    database,
    app,
    bareRepo,
    url: () => app.url(),
    token: () => adminToken(QUICKSTART_TENANT),
    deltaCount: () => deltas.length,
    waitForDelta,
    pushChange: (number, files, message) => pushChange(root, bareRepo, number, files, message),
    waitForReport: (pipeline, from) =>
      waitForDelta(from, (delta) => delta.type === 'item-reported' && delta.pipeline === pipeline),
    async stop() {
      await app.stop();
      await database.destroy();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
