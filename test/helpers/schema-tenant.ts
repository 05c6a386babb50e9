/**
 * A real server whose LayoutManager loads the schema-tenant fixture (test/fixtures/config/schema-tenant)
 * from real git repositories, with the fixture's only secret encrypted with the project's real key.
 * Each test file that calls `useSchemaTenantServer()` gets its own server and database.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encryptSecret } from '../../src/secrets/encryption';
import { git } from '../../src/sources/git-cli';
import { startTestServer, type TestServer } from './server';
import { tenantFixture, type TenantFixture } from './tenant-fixture';

/** The placeholder ciphertext of the fixture's only secret, replaced by a real one before the tests. */
const PLACEHOLDER_CIPHERTEXT = 'U0VDUkVULVZBTFVFLU1BUktFUi1kbzFub3RMZWFrVGhpc0NoaXBoZXJ0ZXh0QW55d2hlcmUK';
/** The secret's value; it and its ciphertext must never leave the server. */
export const SECRET_VALUE = 'fixture-site-password-0451';

export interface GraphQLResponse {
  data?: Record<string, unknown>;
  errors?: { message: string }[];
}

export interface SchemaTenantServer {
  readonly server: TestServer;
  /** The secret's ciphertext as pushed to the fixture's config project. */
  readonly secretCiphertext: string;
  /** Every raw response body of `query`, to check that no secret ever appears. */
  readonly bodies: readonly string[];
  /** POST a GraphQL document; the body is recorded in `bodies`. */
  query(document: string, variables?: Record<string, unknown>): Promise<GraphQLResponse>;
  /** `tenant(name) { ... on Tenant { <selection> } }` (tenant acme by default); fails on GraphQL errors. */
  tenantQuery<T>(selection: string, variables?: Record<string, unknown>, tenant?: string): Promise<T>;
  /** Commit `edit` of a clone of common-config and push it to master. */
  pushToCommonConfig(message: string, edit: (work: string) => void): Promise<void>;
  layoutManager(): NonNullable<TestServer['app']['layoutManager']>;
  /** Fails when any response body so far carried the secret, its ciphertext or a trace of encryption. */
  expectNoSecretInResponses(): void;
}

/** Starts the server before the file's tests and stops it after them. */
export function useSchemaTenantServer(): SchemaTenantServer {
  let fixture: TenantFixture | undefined;
  let server: TestServer | undefined;
  let secretCiphertext = '';
  const bodies: string[] = [];

  const running = (): TestServer => {
    if (server === undefined) {
      throw new Error('the schema-tenant server is not running');
    }
    return server;
  };

  const harness: SchemaTenantServer = {
    get server() {
      return running();
    },
    get secretCiphertext() {
      return secretCiphertext;
    },
    bodies,
    query: async (document, variables) => {
      const res = await fetch(`${running().url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: document, variables }),
      });
      const text = await res.text();
      bodies.push(text);
      return JSON.parse(text) as GraphQLResponse;
    },
    tenantQuery: async <T>(selection: string, variables?: Record<string, unknown>, tenant = 'acme'): Promise<T> => {
      const params = variables
        ? `(${Object.keys(variables)
            .map((k) => `$${k}: ${variableType(k)}`)
            .join(', ')})`
        : '';
      const body = await harness.query(
        /* GraphQL */ `query Q${params} { tenant(name: "${tenant}") { __typename ... on Tenant { ${selection} } } }`,
        variables,
      );
      expect(body.errors).toBeUndefined();
      const data = body.data as { tenant: T & { __typename: string } };
      expect(data.tenant.__typename).toBe('Tenant');
      return data.tenant;
    },
    pushToCommonConfig: async (message, edit) => {
      if (fixture === undefined) {
        throw new Error('the schema-tenant fixture is not built');
      }
      const work = mkdtempSync(path.join(os.tmpdir(), 'sluice-schema-push-'));
      try {
        await git(work, ['clone', '--quiet', path.join(fixture.reposDir, 'common-config.git'), '.']);
        edit(work);
        await git(work, ['add', '--all']);
        await git(work, ['commit', '--quiet', '-m', message]);
        await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    expectNoSecretInResponses: () => {
      for (const body of bodies) {
        expect(body).not.toContain(SECRET_VALUE);
        expect(body).not.toContain(secretCiphertext);
        expect(body).not.toContain('pkcs1');
        expect(body).not.toContain('encrypted');
      }
    },
    layoutManager: () => {
      const manager = running().app.layoutManager;
      if (manager === undefined) {
        throw new Error('the test server has no LayoutManager');
      }
      return manager;
    },
  };

  beforeAll(async () => {
    fixture = await tenantFixture(path.join(__dirname, '..', 'fixtures', 'config', 'schema-tenant'));
    server = await startTestServer({ config: fixture.config });
    // Secrets are decrypted at load, so the fixture's secret is encrypted with the project's real key.
    const key = await (await server.app.services.auth.keys()).secretsKey('review.example.com/common-config');
    [secretCiphertext] = encryptSecret(SECRET_VALUE, key.publicKey());
    await harness.pushToCommonConfig('Encrypt the site secret with the project key', (work) => {
      const file = path.join(work, 'zuul.d', '20-objects.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace(PLACEHOLDER_CIPHERTEXT, secretCiphertext));
    });
    await harness.layoutManager().reconfigure();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    fixture?.cleanup();
  });

  return harness;
}

function variableType(name: string): string {
  return name === 'filter'
    ? 'ConfigErrorFilter'
    : name === 'first' || name === 'last' || name === 'offset'
      ? 'Int'
      : 'String';
}
