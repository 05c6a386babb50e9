/**
 * Live-test helpers: a real Sluice server around an engine harness (sharing its database) and
 * graphql-ws clients whose subscription events can be awaited one by one.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp, type AppOptions, type SluiceApp } from '../../src/server/app';
import { defaultServiceConfig } from '../../src/config/service';
import { silentLogger } from '../../src/server/logger';
import type { Database } from '../../src/store/database';
import { signJwt } from './sign-jwt';
import type { ServiceConfig } from '../../src/config/service';
import { engineEventBusOver } from '../../subscriptions/live/engine-bridge';
import type { EngineHarness } from '../engine/harness';

const TEST_ISSUER = 'sluice-test';
const TEST_SECRET = 'live-test-secret-of-some-length';

/** The service configuration of live tests: one HS256 authenticator that allows `zuul.admin`. */
export function liveTestConfig(): ServiceConfig {
  const config = defaultServiceConfig(process.cwd());
  return {
    ...config,
    auth: {
      ...config.auth,
      authenticators: [
        {
          name: TEST_ISSUER,
          driver: 'HS256',
          realm: 'sluice',
          issuer: TEST_ISSUER,
          clientId: 'sluice',
          secret: TEST_SECRET,
          uidClaim: 'sub',
          clockSkew: 0,
          allowAuthzOverride: true,
          default: true,
        },
      ],
    },
  };
}

/** A valid token (an hour) of the live-test authenticator, admin of `tenant`. */
export function adminToken(tenant: string, claims: Record<string, unknown> = {}): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      iss: TEST_ISSUER,
      aud: 'sluice',
      sub: `admin-of-${tenant}`,
      iat: now,
      exp: now + 3600,
      zuul: { admin: [tenant] },
      ...claims,
    },
    'HS256',
    { kind: 'secret', secret: Buffer.from(TEST_SECRET) },
  );
}

export interface LiveServer {
  app: SluiceApp;
  url: string;
  wsUrl: string;
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string,
  ): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }>;
  stop(): Promise<void>;
}

/** A server over `database` (left open on stop); the harness's deltas are forwarded to the server's bus. */
export async function startLiveServer(
  database: Database,
  options: Partial<AppOptions> & { harness?: EngineHarness } = {},
): Promise<LiveServer> {
  const { harness, ...appOptions } = options;
  const app = buildApp({
    config: liveTestConfig(),
    database: { ...database, close: async () => undefined },
    logger: silentLogger(),
    engine: harness?.engine,
    tenants: { tenantNames: () => (harness ? [harness.tenant] : []), layout: () => undefined },
    ...appOptions,
  });
  let stopForwarding = (): void => undefined;
  if (harness) {
    const forward = engineEventBusOver(app.bus, () => undefined);
    stopForwarding = harness.bus.subscribe(harness.tenant, (delta) => forward.publish(delta));
  }
  await app.start(0, '127.0.0.1');
  const url = app.url();
  return {
    app,
    url,
    wsUrl: `${url.replace(/^http/, 'ws')}/graphql`,
    graphql: async (query, variables, token) => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as never;
    },
    stop: async () => {
      stopForwarding();
      await app.stop();
    },
  };
}

/** Resolves once the server's hub has at least this many live subscribers (subscriptions are active then). */
export async function subscribersActive(
  server: LiveServer,
  want: { delta?: number; status?: number; systemEvents?: number },
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = server.app.live.stats();
    if (
      stats.deltaSubscribers >= (want.delta ?? 0) &&
      stats.statusSubscribers >= (want.status ?? 0) &&
      stats.systemEventSubscribers >= (want.systemEvents ?? 0)
    ) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`subscribers not active: ${JSON.stringify(stats)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A graphql-ws client without retries. */
export function wsClient(server: LiveServer, token?: string): Client {
  return createClient({
    url: server.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  });
}

export interface EventResult<T> {
  data?: T;
  errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>;
}

/** graphql-ws reports operation errors as an array of GraphQL errors, socket problems as an Error or close event. */
function operationErrors(error: unknown): Array<{ message: string; extensions?: Record<string, unknown> }> {
  if (Array.isArray(error)) {
    return error.map((entry: { message?: unknown; extensions?: Record<string, unknown> }) => ({
      message: String(entry.message),
      extensions: entry.extensions,
    }));
  }
  return [{ message: error instanceof Error ? error.message : String(error) }];
}

/** A running subscription whose results can be awaited in order. */
export class Subscription<T = Record<string, unknown>> {
  readonly results: Array<EventResult<T>> = [];
  completed = false;
  private waiters: Array<() => void> = [];
  private readonly dispose: () => void;

  constructor(client: Client, query: string, variables: Record<string, unknown> = {}) {
    this.dispose = client.subscribe<T>(
      { query, variables },
      {
        next: (result) =>
          this.push({
            data: result.data ?? undefined,
            errors: result.errors?.map((error) => ({ message: error.message, extensions: error.extensions })),
          }),
        error: (error) => this.push({ errors: operationErrors(error) }, true),
        complete: () => {
          this.completed = true;
          this.wake();
        },
      },
    );
  }

  /** Resolves once at least `count` results have arrived (rejects after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 5000): Promise<Array<EventResult<T>>> {
    return this.until(
      () => this.results.length >= count,
      timeoutMs,
      `${count} results (have ${this.results.length})`,
    ).then(() => this.results.slice(0, count));
  }

  /** Resolves once `predicate` holds for the results received so far. */
  async until(predicate: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.dispose();
  }

  private push(result: EventResult<T>, done = false): void {
    this.results.push(result);
    if (done) {
      this.completed = true;
    }
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) {
      wake();
    }
  }
}
