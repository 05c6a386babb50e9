/**
 * The server of the REST-over-engine tests: a live server over an engine harness whose gate
 * pipeline holds changes 1,1 and 2,1, with request helpers (tenant admin tokens from
 * `adminToken(tenant)`). `restEngineServer()` registers its set-up and tear-down in the calling
 * test file; the engine runs a scripted executor (builds stay running until a test finishes them).
 */
import { EngineHarness, nextTenant } from '../engine/harness';
import { job, makeLayout, pipeline } from '../engine/scripted-layout';
import type { RestShape } from '../../rest-compat/shape';
import { createTestDatabase, type TestDatabase } from './database';
import { adminToken, liveTestConfig, startLiveServer, type LiveServer } from './live';
import { OpenApiDocuments } from './openapi-documents';

export type Json = Record<string, unknown>;

export interface RestEngineServer {
  /** The engine harness (available from `beforeAll` on). */
  readonly h: EngineHarness;
  readonly server: LiveServer;
  /** A tenant admin token of the harness's tenant. */
  readonly admin: string;
  /** The served OpenAPI documents and validators of their response schemas. */
  readonly documents: OpenApiDocuments;
  /** `/api/tenant/<tenant>`. */
  T(): string;
  request(path: string, shape?: RestShape, init?: RequestInit, token?: string): Promise<Response>;
  /** POST a JSON body, as tenant admin unless `token` says otherwise (null: no token). */
  post(path: string, body: unknown, token?: string | null, shape?: RestShape): Promise<Response>;
  /** The JSON body of a response with the expected status. */
  json<T = unknown>(res: Response, status?: number): Promise<T>;
  /** A fresh change enqueued into gate (and processed); returns its `N,P`. */
  enqueuedChange(): Promise<string>;
  /** A new autohold request of org/project's unit job; returns its id. */
  createAutohold(body?: Json): Promise<string>;
  /** The next unused change number. */
  nextChangeNumber(): number;
}

export function restEngineServer(): RestEngineServer {
  let db: TestDatabase;
  let h: EngineHarness;
  let server: LiveServer;
  let admin: string;
  let nextChange = 10;
  const documents = new OpenApiDocuments();

  beforeAll(async () => {
    db = await createTestDatabase();
    h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: {
          'org/project': { gate: [job('unit'), job('integration', { dependencies: [{ name: 'unit', soft: false }] })] },
        },
      }),
    );
    await h.start();
    admin = adminToken(h.tenant);
    // Many control calls in a row: lift the per-token rate limit (its own test is in auth/wiring-graphql).
    const config = liveTestConfig();
    server = await startLiveServer(db, {
      harness: h,
      config: { ...config, graphql: { ...config.graphql, controlRateLimit: { burst: 10_000, perMinute: 10_000 } } },
    });
    for (const number of [1, 2]) {
      h.changes.add('org/project', number);
      await h.enqueue('gate', 'org/project', `${number},1`);
    }
    await documents.load(server.url);
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await h.stop();
    await db.destroy();
    expect(h.errors).toEqual([]);
  });

  const T = (): string => `/api/tenant/${h.tenant}`;

  function request(
    path: string,
    shape: RestShape = 'current',
    init: RequestInit = {},
    token?: string,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      'X-Sluice-Api-Shape': shape,
      ...(init.headers as Record<string, string>),
    };
    if (token) {
      headers.Authorization = `Bearer ${token}`;
    }
    return fetch(`${server.url}${path}`, { ...init, headers });
  }

  /** POST a JSON body, as tenant admin unless `token` says otherwise (null: no token). */
  const post = (
    path: string,
    body: unknown,
    token: string | null = admin,
    shape: RestShape = 'current',
  ): Promise<Response> =>
    request(
      path,
      shape,
      { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
      token ?? undefined,
    );

  async function json<T = unknown>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect({ status: res.status, text }).toEqual({ status, text: expect.any(String) as unknown });
    return JSON.parse(text) as T;
  }

  /** A fresh change enqueued into gate (and processed). */
  async function enqueuedChange(): Promise<string> {
    nextChange += 1;
    h.changes.add('org/project', nextChange);
    await h.enqueue('gate', 'org/project', `${nextChange},1`);
    return `${nextChange},1`;
  }

  async function createAutohold(body: Json = {}): Promise<string> {
    const res = await post(`${T()}/project/org/project/autohold`, {
      job: 'unit',
      count: 1,
      reason: 'debug',
      node_hold_expiration: null,
      ...body,
    });
    expect(await json(res)).toBe(true);
    const list = await json<Array<{ id: string }>>(await request(`${T()}/autohold`));
    const last = list.at(-1);
    if (!last) {
      throw new Error('no autohold created');
    }
    return last.id;
  }

  return {
    get h() {
      return h;
    },
    get server() {
      return server;
    },
    get admin() {
      return admin;
    },
    documents,
    T,
    request,
    post,
    json,
    enqueuedChange,
    createAutohold,
    nextChangeNumber: () => {
      nextChange += 1;
      return nextChange;
    },
  };
}
