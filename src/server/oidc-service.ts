/**
 * Sluice as an OIDC issuer (docs/security.md#oidc-tokens): the discovery document and JWKS
 * routes (docs/rest.md#oidc-discovery), the token source of the executor and the rotation of the
 * signing keys, run by processes with the scheduler role.
 */
import type Koa from 'koa';
import type { KeyManager } from '../auth/keys/key-manager';
import type { OidcSigningKeys } from '../auth/keys/oidc-signing-keys';
import type { ServiceConfig } from '../config/service';
import { oidcIssuer } from '../config/ref-urls';
import type { Layout } from '../config/layout';
import { PeriodicTask } from '../engine/ports/periodic-task';
import type { TimerClock } from '../engine/ports/clock';
import type { OidcTokenSource } from '../executor/oidc-tokens';
import type { Logger } from './logger';
import type { RoleTask } from './roles';

export interface OidcServiceOptions {
  config: ServiceConfig;
  keys: () => Promise<KeyManager>;
  /** The tenant's current layout (its `web-root`, `max-oidc-ttl`). */
  layout: (tenant: string) => Layout | undefined;
  tenantNames: () => string[];
  /** `api.publicUrl`, else where this process listens. */
  publicUrl: () => string | undefined;
  logger: Logger;
  timers?: TimerClock;
}

/** The `max-oidc-ttl` of a tenant that sets none. */
const DEFAULT_MAX_OIDC_TTL = 10_800;
/** How often the rotation looks at the keys, at most (seconds). */
const ROTATION_CHECK_SECONDS = 3600;

const ROUTE = /^(?:\/oidc)?(?:\/([^/]+))?\/\.well-known\/(openid-configuration|jwks)$/;

export class OidcService {
  constructor(private readonly options: OidcServiceOptions) {}

  /** The issuer of a tenant's tokens (the service's without a tenant). */
  issuer(tenant: string | undefined): string {
    const webRoot = tenant === undefined ? undefined : this.options.layout(tenant)?.tenant.webRoot;
    return oidcIssuer(webRoot, this.options.publicUrl());
  }

  private async signingKeys(): Promise<OidcSigningKeys> {
    const keys = (await this.options.keys()).oidc;
    if (keys === undefined) {
      throw new Error('this process has no store of OIDC signing keys');
    }
    return keys;
  }

  /** What the executor signs tokens with. */
  tokenSource(): OidcTokenSource {
    return {
      defaultAlgorithm: this.options.config.oidc.defaultSigningAlgorithm,
      signingKey: async (algorithm) => (await this.signingKeys()).latest(algorithm),
      issuer: (tenant) => this.issuer(tenant) || undefined,
    };
  }

  /** `GET [/oidc][/{tenant}]/.well-known/openid-configuration` and `.../jwks`. */
  routes(): Koa.Middleware {
    return async (ctx, next) => {
      const match = ROUTE.exec(ctx.path);
      if (match === null) {
        return next();
      }
      ctx.state.route = ctx.path.startsWith('/oidc') ? '/oidc/.well-known' : '/.well-known';
      if (ctx.method === 'OPTIONS') {
        // A browser's preflight (the reference answers it too).
        ctx.status = 204;
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        ctx.set('Access-Control-Max-Age', '86400');
        return;
      }
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        ctx.status = 405;
        ctx.set('Allow', 'GET, HEAD, OPTIONS');
        ctx.body = { error: 'Method Not Allowed', description: `${ctx.method} is not allowed here` };
        return;
      }
      const [, tenant, document] = match;
      const algorithms = this.options.config.oidc.supportedSigningAlgorithms;
      ctx.set('Access-Control-Allow-Origin', '*');
      if (document === 'jwks') {
        ctx.body = await (await this.signingKeys()).jwks(algorithms);
        return;
      }
      const issuer = this.issuer(tenant === undefined ? undefined : safeDecode(tenant));
      ctx.body = {
        issuer,
        jwks_uri: `${issuer}/oidc/.well-known/jwks`,
        claims_supported: ['aud', 'iat', 'iss', 'name', 'sub', 'custom'],
        response_types_supported: ['id_token'],
        id_token_signing_alg_values_supported: algorithms,
        subject_types_supported: ['public'],
      };
    };
  }

  /** The longest `max-oidc-ttl` of the tenants: no token lives longer. */
  maxTtl(): number {
    const ttls = this.options
      .tenantNames()
      .map((tenant) => this.options.layout(tenant)?.tenant.maxOidcTtl ?? DEFAULT_MAX_OIDC_TTL);
    return ttls.length === 0 ? DEFAULT_MAX_OIDC_TTL : Math.max(...ttls);
  }

  /** One rotation of every supported algorithm's keys. */
  async rotate(): Promise<void> {
    const { config, logger } = this.options;
    const keys = await this.signingKeys();
    for (const algorithm of config.oidc.supportedSigningAlgorithms) {
      const result = await keys.rotate(algorithm, config.oidc.signingKeyRotationInterval, this.maxTtl());
      if (result.created !== undefined || result.deleted > 0) {
        logger.info({ algorithm, ...result }, 'OIDC signing keys rotated');
      }
    }
  }

  /**
   * Start the rotation loop (at once, then every hour or rotation interval); the task stops it,
   * `idle()` waits for a rotation under way.
   */
  startRotation(): RoleTask & { idle(): Promise<void> } {
    const interval = Math.min(this.options.config.oidc.signingKeyRotationInterval, ROTATION_CHECK_SECONDS);
    const task = new PeriodicTask({
      name: 'oidc signing key rotation',
      intervalMs: interval * 1000,
      tick: () => this.rotate(),
      onError: (err) => this.options.logger.warn({ err }, 'rotating the OIDC signing keys failed'),
      clock: this.options.timers,
    });
    task.start(0);
    return {
      name: 'oidc-key-rotation',
      idle: () => task.idle(),
      stop: async () => {
        await task.stop();
      },
    };
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
