/**
 * OIDC tokens end to end in one `buildApp()` process (docs/security.md#oidc-tokens): a job bound
 * to an `oidc` secret finds a signed JWT as the secret's value, writes it outside the log; the test
 * verifies it against the server's JWKS endpoint with jose and checks its claims, and reads the
 * discovery documents (docs/rest.md#oidc-discovery).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { git } from '../../src/sources/git-cli';
import { gitPoller } from '../helpers/git-pollers';
import {
  QUICKSTART_PROJECT as PROJECT,
  QUICKSTART_TENANT as TENANT,
  startQuickstartApp,
  type QuickstartApp,
} from '../helpers/quickstart-app';

const SCRIPT = `set -eu
node -e 'process.stdout.write(require(process.env.SLUICE_SECRETS_FILE).id_token)' > "$SLUICE_VAR_seen_dir/token.txt"
echo "token=$(cat "$SLUICE_VAR_seen_dir/token.txt")"
`;

/** An Ansible playbook returns the claims and header of its token (the token itself would be masked). */
const PLAYBOOK = `- hosts: localhost
  gather_facts: false
  tasks:
    - zuul_return:
        data:
          claims: "{{ (id_token.split('.')[1] | replace('-', '+') | replace('_', '/') + '==') | b64decode | from_json }}"
          header: "{{ (id_token.split('.')[0] | replace('-', '+') | replace('_', '/') + '==') | b64decode | from_json }}"
          parts: "{{ id_token.split('.') | length }}"
`;

const JOBS = (seenDir: string) => `
- secret:
    name: cloud-identity
    oidc:
      ttl: 600
      claims:
        aud: my-cloud
        sub: ignored

- job:
    name: hello-identity-playbook
    run: playbooks/identity.yaml
    secrets:
      - name: id_token
        secret: cloud-identity

- job:
    name: hello-identity
    run: scripts/identity.sh
    secrets:
      - name: id_token
        secret: cloud-identity
    vars:
      seen_dir: ${seenDir}

`;

/** The quickstart project's configuration with the `oidc` secret and a post job using it. */
function zuulYaml(seenDir: string): string {
  const current = readFileSync(
    path.resolve(__dirname, '../../examples/quickstart/repos/example/hello/.zuul.yaml'),
    'utf8',
  );
  const post = '    post:\n      jobs:\n        - hello-publish\n';
  if (!current.includes(post)) {
    throw new Error('the quickstart project runs hello-publish in post');
  }
  return `${current.replace(post, `${post}        - hello-identity\n        - hello-identity-playbook\n`)}${JOBS(seenDir)}`;
}

describe('OIDC tokens end to end', () => {
  let quickstart: QuickstartApp;
  let seenDir: string;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-oidc-seen-'));
    seenDir = path.join(scratch, 'seen');
    mkdirSync(seenDir);
    quickstart = await startQuickstartApp('sluice-oidc-e2e-', {
      projectFiles: {
        '.zuul.yaml': zuulYaml(seenDir),
        'scripts/identity.sh': SCRIPT,
        'playbooks/identity.yaml': PLAYBOOK,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await quickstart.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function getJson(apiPath: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${quickstart.url()}${apiPath}`);
    expect({ apiPath, status: response.status }).toEqual({ apiPath, status: 200 });
    return (await response.json()) as Record<string, unknown>;
  }

  it('serves the discovery document and JWKS at every path of the reference', async () => {
    const issuer = quickstart.url().replace(/\/+$/, '');
    for (const prefix of ['/oidc', '', `/oidc/${TENANT}`, `/${TENANT}`, '/oidc/no-such-tenant']) {
      expect(await getJson(`${prefix}/.well-known/openid-configuration`)).toEqual({
        issuer,
        jwks_uri: `${issuer}/oidc/.well-known/jwks`,
        claims_supported: ['aud', 'iat', 'iss', 'name', 'sub', 'custom'],
        response_types_supported: ['id_token'],
        id_token_signing_alg_values_supported: ['RS256'],
        subject_types_supported: ['public'],
      });
    }
    const response = await fetch(`${quickstart.url()}/oidc/.well-known/jwks`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const preflight = await fetch(`${quickstart.url()}/oidc/${TENANT}/.well-known/jwks`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('gives a job with an oidc secret a token that verifies against the JWKS endpoint', async () => {
    const { app, root, bareRepo } = quickstart;
    const poller = gitPoller(app.roles, 'local');
    if (poller === undefined) {
      throw new Error('the quickstart app runs a git poller');
    }
    expect(app.layoutManager?.layout(TENANT)?.errors).toEqual([]);
    await poller.pollNow(); // baseline: the branch tips before the push
    const work = mkdtempSync(path.join(root, 'work-'));
    await git(root, ['clone', '--quiet', bareRepo, work]);
    writeFileSync(path.join(work, 'NEWS'), 'identity\n');
    await git(work, ['add', '--all']);
    await git(work, ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'News']);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);
    const before = quickstart.deltaCount();
    await poller.pollNow();
    const report = await quickstart.waitForReport('post', before);
    expect(report).toMatchObject({ pipeline: 'post', result: 'SUCCESS' });

    const token = readFileSync(path.join(seenDir, 'token.txt'), 'utf8');
    const issuer = quickstart.url().replace(/\/+$/, '');
    const jwks = createRemoteJWKSet(new URL(`${quickstart.url()}/oidc/.well-known/jwks`));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer, audience: 'my-cloud' });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: 'RS256-0' });
    const [build] = await quickstart.database
      .knex('builds')
      .where({ tenant: TENANT, job_name: 'hello-identity' })
      .select('uuid', 'log_url');
    // The token is masked in the build's log like a secret value.
    const log = await (await fetch(`${build.log_url as string}job-output.txt`)).text();
    expect(log).toContain('token=******');
    expect(log).not.toContain(token.split('.')[2]);
    const canonical = `git.example.local/${PROJECT}`;
    expect(payload).toMatchObject({
      iss: issuer,
      sub: `secret:${TENANT}/${canonical}/cloud-identity`,
      aud: 'my-cloud',
      'build-uuid': build.uuid,
      'job-name': 'hello-identity',
      playbook: `${canonical}/scripts/identity.sh`,
      pipeline: 'post',
      tenant: TENANT,
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    const jwksBody = (await getJson('/oidc/.well-known/jwks')) as { keys: Array<Record<string, unknown>> };
    expect(jwksBody.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: 'RS256-0' })]);
    expect(decodeProtectedHeader(token).typ).toBe('JWT');

    // The Ansible playbook's variable held a token of its own, with its playbook in the claims.
    const [played] = await quickstart.database
      .knex('builds')
      .where({ tenant: TENANT, job_name: 'hello-identity-playbook' })
      .select('uuid', 'result');
    expect(played.result).toBe('SUCCESS');
    const query = `query ($tenant: String!, $uuid: String!) {
      tenant(name: $tenant) { ... on Tenant { build(uuid: $uuid) { ... on Build { returnedData } } } }
    }`;
    const answer = await fetch(`${quickstart.url()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { tenant: TENANT, uuid: played.uuid } }),
    });
    const body = (await answer.json()) as { data: { tenant: { build: { returnedData: Record<string, unknown> } } } };
    const returned = body.data.tenant.build.returnedData;
    expect(returned).toMatchObject({
      parts: '3',
      header: { alg: 'RS256', kid: 'RS256-0', typ: 'JWT' },
      claims: {
        iss: issuer,
        sub: `secret:${TENANT}/${canonical}/cloud-identity`,
        aud: 'my-cloud',
        'build-uuid': played.uuid,
        'job-name': 'hello-identity-playbook',
        playbook: `${canonical}/playbooks/identity.yaml`,
      },
    });
  }, 120_000);
});
