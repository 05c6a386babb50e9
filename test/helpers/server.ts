/** Boots the real Sluice server on an ephemeral port against a fresh test database. */
import type { TimerClock } from '../../src/engine/ports/clock';
import { buildApp, type SluiceApp } from '../../src/server/app';
import { defaultServiceConfig, type ServiceConfig } from '../../src/config/service';
import { silentLogger, type Logger } from '../../src/server/logger';
import { createTestDatabase, type Backend, type TestDatabase } from './database';
import { RunCachedToolchain } from './run-cached-toolchain';

export interface TestServer {
  app: SluiceApp;
  database: TestDatabase;
  url: string;
  /** POST a GraphQL operation; returns the parsed JSON response. */
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  backend?: Backend;
  config?: Partial<ServiceConfig>;
  now?: () => Date;
  /** The timers of the drivers' own polls (a FakeTimerClock moves them on); default: the system clock. */
  timers?: TimerClock;
  /**
   * Tenant names the server knows, without layouts. When absent, the server loads
   * `config.tenantConfig` with a real LayoutManager (no tenants without a tenant file).
   */
  tenants?: string[];
  /** Default: silent. */
  logger?: Logger;
  /** A database the caller owns (not destroyed by `stop`); default: a fresh one. */
  database?: TestDatabase;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase({ backend: options.backend }));
  const config: ServiceConfig = { ...defaultServiceConfig(process.cwd()), ...options.config };
  const tenantNames = options.tenants;
  const tenants = tenantNames === undefined ? undefined : { tenantNames: () => tenantNames, layout: () => undefined };
  const app = buildApp({
    config,
    database,
    logger: options.logger ?? silentLogger(),
    now: options.now,
    timers: options.timers,
    tenants,
    // The toolchain probe at start is answered once per jest run (test/helpers/run-cached-toolchain.ts).
    toolchain: (toolchainOptions) => new RunCachedToolchain(toolchainOptions),
  });
  await app.start(0, '127.0.0.1');
  const url = app.url();
  return {
    app,
    database,
    url,
    graphql: async (query, variables, headers) => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as never;
    },
    stop: async () => {
      await app.stop();
      if (!options.database) {
        await database.destroy();
      }
    },
  };
}
