/**
 * OIDC tokens of `oidc` secrets (docs/security.md#oidc-tokens): for each run of a step that uses
 * one, the executor signs a fresh JWT with the service's newest signing key of the secret's
 * algorithm; the token is the value of the secret's variable in that step, and is masked in
 * whatever the build leaves behind like any secret value.
 */
import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { combineRedactors, createRedactor, type Redactor } from '../secrets/redact';
import type { BuildRequestParams, BuildSecret, BuildStep } from '../model/build-request';

/** Where the executor gets signing keys and the issuer from. */
export interface OidcTokenSource {
  /** The algorithm of a secret that names none (`oidc.defaultSigningAlgorithm`). */
  defaultAlgorithm: string;
  /** The newest signing key of the algorithm (created on first need). */
  signingKey(algorithm: string): Promise<{ kid: string; privateKey: KeyObject }>;
  /** The issuer of the tenant's tokens: its web root cut at `/t/`; undefined when none is known. */
  issuer(tenant: string): string | undefined;
}

/** What the claims say about the build. */
export interface OidcBuildFacts {
  tenant: string;
  /** Canonical name of the item's project. */
  project: string;
  buildUuid: string;
  jobName: string;
  pipeline: string;
}

export type OidcSettings = NonNullable<BuildSecret['oidc']>;

/**
 * The claims of a token: `iss` (the secret's `iss`, else the service's), `sub`
 * (`secret:<tenant>/<project>/<secret>`), the build's facts, `iat` and `exp` (`iat` + ttl, in
 * seconds), then the secret's custom claims, none of which replaces one of these.
 */
export function oidcClaims(
  secret: { name: string; oidc: OidcSettings },
  facts: OidcBuildFacts,
  playbook: string,
  issuer: string,
  now: Date,
): Record<string, unknown> {
  const iat = Math.floor(now.getTime() / 1000);
  const claims: Record<string, unknown> = {
    iss: secret.oidc.iss ?? issuer,
    sub: `secret:${facts.tenant}/${facts.project}/${secret.name}`,
    'build-uuid': facts.buildUuid,
    'job-name': facts.jobName,
    playbook,
    pipeline: facts.pipeline,
    tenant: facts.tenant,
    iat,
    exp: iat + secret.oidc.ttl,
  };
  for (const [key, value] of Object.entries(secret.oidc.claims)) {
    if (!(key in claims)) {
      claims[key] = value;
    }
  }
  return claims;
}

/** A step could not get its token (no signing key); the build ends in ERROR. */
export class OidcTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OidcTokenError';
  }
}

/** Issues the tokens of one build's steps; every token issued is added to its redactor. */
export class OidcTokenIssuer {
  private tokens: string[] = [];
  private masked: Redactor;

  constructor(
    private readonly source: OidcTokenSource | undefined,
    private readonly facts: OidcBuildFacts,
    private readonly base: Redactor,
    private readonly now: () => Date,
    private readonly warn: (message: string) => void,
  ) {
    this.masked = base;
  }

  /** Masks the decrypted secrets and every token issued so far (always active: tokens may come). */
  readonly redactor: Redactor = {
    redact: (text) => this.masked.redact(text),
    redactJson: (value) => this.masked.redactJson(value),
    active: true,
  };

  /** The step's `oidc` secrets as `{<alias>: <token>}`; empty (with a warning) when no issuer is known. */
  async stepTokens(
    step: BuildStep,
    secrets: readonly BuildSecret[],
    playbook: string,
  ): Promise<Record<string, string>> {
    const used = (step.secrets ?? []).flatMap((binding) => {
      const secret = secrets[binding.secret];
      return secret?.oidc === undefined ? [] : [{ alias: binding.alias, name: secret.name, oidc: secret.oidc }];
    });
    if (used.length === 0) {
      return {};
    }
    const issuer = this.source?.issuer(this.facts.tenant);
    if (this.source === undefined || issuer === undefined) {
      this.warn('no web root is known (tenant web-root or api.publicUrl): OIDC tokens are not issued');
      return {};
    }
    const out: Record<string, string> = {};
    for (const secret of used) {
      const algorithm = secret.oidc.algorithm ?? this.source.defaultAlgorithm;
      let key;
      try {
        key = await this.source.signingKey(algorithm);
      } catch (err) {
        throw new OidcTokenError(`Secret ${secret.name}: no OIDC signing key: ${(err as Error).message}`);
      }
      const claims = oidcClaims(secret, this.facts, playbook, issuer, this.now());
      out[secret.alias] = await new SignJWT(claims)
        .setProtectedHeader({ alg: algorithm, typ: 'JWT', kid: key.kid })
        .sign(key.privateKey);
      this.tokens.push(out[secret.alias]);
    }
    this.masked = combineRedactors([this.base, createRedactor(this.tokens)]);
    return out;
  }
}

/** A step's `<project canonical name>/<path>` (the `playbook` claim, `zuul_execution_canonical_name_and_path`). */
export function stepCanonicalPath(params: BuildRequestParams, step: BuildStep): string {
  return `${params.zuul?.canonicalNames[step.project] ?? step.project}/${step.path}`;
}
