/**
 * The claims and header of an OIDC token (docs/security.md#oidc-tokens), and the issuer of
 * discovery documents and tokens.
 */
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { oidcIssuer } from '../../../src/config/ref-urls';
import { OidcTokenIssuer, oidcClaims, type OidcTokenSource } from '../../../src/executor/oidc-tokens';
import { createRedactor } from '../../../src/secrets/redact';

const FACTS = {
  tenant: 'acme',
  project: 'git.example.com/org/app',
  buildUuid: 'b0a1d2c3e4f5',
  jobName: 'deploy',
  pipeline: 'gate',
};
const NOW = new Date('2026-11-29T12:00:00.900Z');
const IAT = Math.floor(NOW.getTime() / 1000);

describe('OIDC token claims', () => {
  it('sets the reference claims; custom claims never replace them', () => {
    const claims = oidcClaims(
      {
        name: 'cloud',
        oidc: { ttl: 900, algorithm: 'RS256', claims: { aud: 'sts', sub: 'forged', tenant: 'other', extra: [1, 2] } },
      },
      FACTS,
      'git.example.com/org/app/playbooks/deploy.yaml',
      'https://zuul.example.com',
      NOW,
    );
    expect(claims).toEqual({
      iss: 'https://zuul.example.com',
      sub: 'secret:acme/git.example.com/org/app/cloud',
      'build-uuid': 'b0a1d2c3e4f5',
      'job-name': 'deploy',
      playbook: 'git.example.com/org/app/playbooks/deploy.yaml',
      pipeline: 'gate',
      tenant: 'acme',
      iat: IAT,
      exp: IAT + 900,
      aud: 'sts',
      extra: [1, 2],
    });
  });

  it("uses the secret's iss when it names one", () => {
    const claims = oidcClaims(
      { name: 'cloud', oidc: { ttl: 60, iss: 'https://issuer.example', algorithm: 'RS256', claims: {} } },
      FACTS,
      'p',
      'https://zuul.example.com',
      NOW,
    );
    expect(claims.iss).toBe('https://issuer.example');
  });

  it('cuts the web root at /t/ and drops the trailing slash', () => {
    expect(oidcIssuer('https://ci.example.com/zuul/t/acme/', undefined)).toBe('https://ci.example.com/zuul');
    expect(oidcIssuer(undefined, 'https://ci.example.com/')).toBe('https://ci.example.com');
    expect(oidcIssuer(undefined, undefined)).toBe('');
  });
});

describe('OIDC token issuer', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const source: OidcTokenSource = {
    defaultAlgorithm: 'RS256',
    signingKey: () => Promise.resolve({ kid: 'RS256-3', privateKey }),
    issuer: () => 'https://ci.example.com',
  };
  const secrets = [
    { name: 'plain', project: FACTS.project, data: { x: 1 } },
    { name: 'cloud', project: FACTS.project, data: {}, oidc: { ttl: 60, claims: {} } },
  ];
  const step = {
    connection: 'c',
    project: 'org/app',
    path: 'run.yaml',
    secrets: [
      { alias: 'p', secret: 0 },
      { alias: 'id_token', secret: 1 },
    ],
  };

  it('signs a token per run with kid <alg>-<version> and masks every token issued', async () => {
    const warnings: string[] = [];
    const issuer = new OidcTokenIssuer(
      source,
      FACTS,
      createRedactor([]),
      () => NOW,
      (m) => warnings.push(m),
    );
    const first = await issuer.stepTokens(step, secrets, 'org/app/run.yaml');
    expect(Object.keys(first)).toEqual(['id_token']);
    expect(decodeProtectedHeader(first.id_token)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'RS256-3' });
    expect(decodeJwt(first.id_token)).toMatchObject({
      sub: 'secret:acme/git.example.com/org/app/cloud',
      exp: IAT + 60,
    });
    expect(issuer.redactor.redact(`token ${first.id_token}`)).toBe('token ******');
    expect(warnings).toEqual([]);
  });

  it('issues nothing, with a warning, when no web root is known', async () => {
    const warnings: string[] = [];
    const none = { ...source, issuer: () => undefined };
    const issuer = new OidcTokenIssuer(
      none,
      FACTS,
      createRedactor([]),
      () => NOW,
      (m) => warnings.push(m),
    );
    expect(await issuer.stepTokens(step, secrets, 'org/app/run.yaml')).toEqual({});
    expect(warnings).toHaveLength(1);
  });
});
