/**
 * Servers and tokens of the REST auth contract tests (test/integration/rest-auth-contract/): a
 * tenant file over real git repositories with the given authenticators, HS256 and OpenID Connect
 * authenticator configurations, signed tokens, and checks of the 401 and 403 answers.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { signJwt } from './sign-jwt';
import { defaultServiceConfig, type ServiceConfig } from '../../src/config/service';
import { createGitFixture, type GitFixture } from './git-fixtures';
import { startTestServer, type TestServer } from './server';

export type Json = Record<string, unknown>;
export type Authenticator = ServiceConfig['auth']['authenticators'][number];
export type Hs256Authenticator = Extract<Authenticator, { driver: 'HS256' }>;
export type OidcAuthenticator = Extract<Authenticator, { driver: 'OpenIDConnect' }>;

export const COMMON_CONFIG = `
- pipeline:
    name: check
    manager: independent
    trigger: {}

- job:
    name: base
    parent: null
    run: base.sh

- job:
    name: project-test2
    run: test2.sh
`;

export const hs256 = (
  name: string,
  issuer: string,
  secret: string,
  extra: Partial<Omit<Hs256Authenticator, 'driver'>> = {},
): Hs256Authenticator => ({
  name,
  driver: 'HS256',
  realm: name,
  issuer,
  clientId: name,
  secret,
  uidClaim: 'sub',
  clockSkew: 0,
  allowAuthzOverride: false,
  default: false,
  ...extra,
});

export const oidc = (
  name: string,
  issuer: string,
  extra: Partial<Omit<OidcAuthenticator, 'driver'>> = {},
): OidcAuthenticator => ({
  name,
  driver: 'OpenIDConnect',
  realm: name,
  issuer,
  clientId: 'zuul',
  uidClaim: 'sub',
  clockSkew: 0,
  allowAuthzOverride: false,
  default: false,
  scope: 'openid profile',
  loadUserInfo: true,
  keysCacheTtl: 600,
  ...extra,
});

/** docs/rest.md#reference-cases: the test suite's HS256 operator authenticator, which allows `zuul.admin`. */
export const OPERATOR = hs256('zuul.example.com', 'zuul_operator', 'NoDanaOnlyZuul', { allowAuthzOverride: true });
/** The rules fixture's authenticator: no override, admins come from rules. */
export const RULES = hs256('rules.example.com', 'rules_operator', 'rules-secret');
/** `max_validity_time=5` (#56). */
export const MAX_AGE = hs256('mvt.example.com', 'mvt_operator', 'mvt-secret', {
  allowAuthzOverride: true,
  maxTokenAge: 5,
});

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function token(authenticator: Hs256Authenticator, claims: Json = {}, secret?: string): string {
  const key = secret ?? authenticator.secret ?? '';
  const base = {
    iss: authenticator.issuer,
    aud: authenticator.clientId,
    sub: 'testuser',
    iat: nowSeconds(),
    exp: nowSeconds() + 3600,
  };
  const payload = Object.fromEntries(
    Object.entries({ ...base, ...claims }).filter(([, value]) => value !== undefined),
  ) as Json;
  return signJwt(payload as never, 'HS256', { kind: 'secret', secret: Buffer.from(key) });
}

export const operatorToken = (tenants: string[], claims: Json = {}) =>
  token(OPERATOR, { zuul: { admin: tenants }, ...claims });

export interface Setup {
  git: GitFixture;
  server: TestServer;
  tenantFile: string;
}

export async function startServer(tenantFileText: string, authenticators: Authenticator[]): Promise<Setup> {
  const git = createGitFixture();
  await git.createProject('common-config', { 'zuul.yaml': COMMON_CONFIG });
  const master = await git.createProject('org/project', { README: 'hello\n' });
  await git.pushChange('org/project', 1, 1, { parent: master, files: { README: 'change one\n' } });
  const tenantFile = path.join(git.root, 'main.yaml');
  writeFileSync(tenantFile, tenantFileText);
  const defaults = defaultServiceConfig(process.cwd());
  const server = await startTestServer({
    config: {
      tenantConfig: tenantFile,
      connections: {
        gerrit: { driver: 'git', baseurl: git.baseDir, pollInterval: 3600, canonicalHostname: 'review.example.com' },
      },
      auth: { ...defaults.auth, authenticators },
      logs: { dir: path.join(git.root, 'logs') },
    },
  });
  return { git, server, tenantFile };
}

export const SOURCE = `
    source:
      gerrit:
        config-projects:
          - common-config
        untrusted-projects:
          - org/project`;

export const RULES_TENANT_FILE = `
- authorization-rule:
    name: venkman-rule
    conditions:
      - zuul_uid: venkman
- authorization-rule:
    name: car-rule
    conditions:
      - vehicle.car: ecto-1
- authorization-rule:
    name: ghostbusters-rule
    conditions:
      - groups: ghostbusters
- authorization-rule:
    name: columbia-rule
    conditions:
      - iss: columbia.edu
        zuul_uid: stantz
- tenant:
    name: tenant-one
    admin-rules:
      - venkman-rule
      - car-rule
      - ghostbusters-rule
      - columbia-rule${SOURCE}
- tenant:
    name: tenant-two
    authentication-realm: myOIDC2${SOURCE}
`;

export function call(
  server: TestServer,
  route: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) {
    headers.Authorization = `Bearer ${options.token}`;
  }
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  return fetch(`${server.url}/api/${route}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

export async function json<T = unknown>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  // The body is part of the comparison so that a wrong status shows what the server said.
  expect({ status: res.status, text }).toEqual({ status, text: res.status === status ? text : '(a body)' });
  return JSON.parse(text) as T;
}

/** A 401 with the reference body and WWW-Authenticate naming the same error. */
export async function expect401(res: Response, error: string, description?: string): Promise<void> {
  const body = (await res.json()) as { error: string; description: string; realm: unknown };
  expect({ status: res.status, error: body.error }).toEqual({ status: 401, error });
  if (description !== undefined) {
    expect(body.description).toBe(description);
  }
  expect(Object.keys(body).sort()).toEqual(['description', 'error', 'realm']);
  expect(res.headers.get('www-authenticate')).toContain(`error="${error}"`);
}

/** A 403 with the JSON error body of docs/openapi-current.json. */
export async function expect403(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await res.json()).toEqual({ error: 'Forbidden', description: 'Permission denied' });
}
