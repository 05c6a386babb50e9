/**
 * What `/api/info` (and GraphQL `info.capabilities.auth`) tells clients about authentication
 * (docs/rest.md#info): the realms, the default realm and whether reading is protected.
 */
import type { AuthConfig } from '../config/service';

/** One realm as clients see it. */
export interface RealmInfo {
  /** The realm name (the key of `realms` in the REST shape). */
  name: string;
  authority: string;
  clientId: string;
  driver: 'HS256' | 'RS256' | 'ES256' | 'OpenIDConnect';
  /** OpenIDConnect only. */
  scope: string | null;
  /** OpenIDConnect only. */
  loadUserInfo: boolean | null;
}

/** The realms of the configured authenticators, in configuration order. */
export function authRealms(auth: AuthConfig): RealmInfo[] {
  return auth.authenticators.map((a) => ({
    name: a.realm ?? a.name,
    authority: a.authority ?? a.issuer,
    clientId: a.clientId,
    driver: a.driver,
    scope: a.driver === 'OpenIDConnect' ? a.scope : null,
    loadUserInfo: a.driver === 'OpenIDConnect' ? a.loadUserInfo : null,
  }));
}

/**
 * The default realm: `override` (the api-root's or tenant's `authentication-realm`) when set,
 * else the authenticator marked `default`, else the first; null without authenticators.
 */
export function defaultRealm(auth: AuthConfig, override?: string | null): string | null {
  if (override !== undefined && override !== null && override !== '') {
    return override;
  }
  const chosen = auth.authenticators.find((a) => a.default) ?? auth.authenticators[0];
  return chosen === undefined ? null : (chosen.realm ?? chosen.name);
}

/** A realm in the REST wire shape. */
export interface RealmWire {
  authority: string;
  client_id: string;
  type: 'JWT';
  driver: RealmInfo['driver'];
  scope?: string;
  load_user_info?: boolean;
}

/** `capabilities.auth.realms` of the REST shape: keyed by realm name. */
export function realmsWire(realms: readonly RealmInfo[]): Record<string, RealmWire> {
  const wire: Record<string, RealmWire> = {};
  for (const realm of realms) {
    wire[realm.name] = {
      authority: realm.authority,
      client_id: realm.clientId,
      type: 'JWT',
      driver: realm.driver,
      ...(realm.scope !== null ? { scope: realm.scope } : {}),
      ...(realm.loadUserInfo !== null ? { load_user_info: realm.loadUserInfo } : {}),
    };
  }
  return wire;
}
