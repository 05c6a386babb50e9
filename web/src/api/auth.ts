/**
 * Sign-in state: a token pasted by the user, or one obtained from an OpenID Connect provider with
 * the authorization code flow and PKCE (docs/security.md#authenticators, docs/dashboard.md#signing-in).
 * The token lives in localStorage, so every tab shares it; claims are read for display only
 * (the server verifies every request).
 */
const TOKEN_KEY = 'sluice.token';
const PKCE_KEY = 'sluice.oidc';

const listeners = new Set<() => void>();

export function currentToken(): string | null {
  try {
    const stored = localStorage.getItem(TOKEN_KEY);
    return stored === null ? null : normalizeToken(stored);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  if (token === null) {
    localStorage.removeItem(TOKEN_KEY);
  } else {
    localStorage.setItem(TOKEN_KEY, normalizeToken(token));
  }
  listeners.forEach((listener) => listener());
}

/** Follow sign-in and sign-out (also in other tabs); returns the unsubscribe function. */
export function onTokenChange(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent): void => {
    if (event.key === TOKEN_KEY) {
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The token in what a user pastes: surrounding space and quotes and an `Authorization` header's
 * `Bearer ` prefix are left out (docs/gating.md prints tokens as `Bearer <jwt>`).
 */
export function normalizeToken(text: string): string {
  return text
    .trim()
    .replace(/^authorization:\s*/i, '')
    .replace(/^bearer\s+/i, '')
    .replace(/^["']|["']$/g, '')
    .trim();
}

export interface TokenClaims {
  sub?: string;
  name?: string;
  preferred_username?: string;
  exp?: number;
  iss?: string;
}

/** The token's payload, or null when it is not a readable JWT. */
export function tokenClaims(token: string | null): TokenClaims | null {
  const payload = token?.split('.')[1];
  if (payload === undefined) {
    return null;
  }
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** A realm the server announces (`info.capabilities.auth.realms`). */
export interface OidcRealm {
  name: string;
  authority: string;
  clientId: string;
  scope: string;
}

interface PendingLogin {
  state: string;
  verifier: string;
  realm: OidcRealm;
  tokenEndpoint: string;
  returnTo: string;
}

const CALLBACK_PATH = '/auth_callback';

function randomString(bytes: number): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return base64Url(data);
}

function base64Url(data: Uint8Array): string {
  return btoa(String.fromCharCode(...data))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function discover(authority: string): Promise<{ authorization_endpoint: string; token_endpoint: string }> {
  const response = await fetch(`${authority.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!response.ok) {
    throw new Error(`The identity provider's configuration could not be read (HTTP ${response.status}).`);
  }
  return (await response.json()) as { authorization_endpoint: string; token_endpoint: string };
}

/** Start the authorization code flow with PKCE: navigates to the provider. */
export async function startOidcLogin(realm: OidcRealm): Promise<void> {
  const config = await discover(realm.authority);
  const verifier = randomString(48);
  const challenge = base64Url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  const state = randomString(16);
  const pending: PendingLogin = {
    state,
    verifier,
    realm,
    tokenEndpoint: config.token_endpoint,
    returnTo: location.pathname + location.search,
  };
  sessionStorage.setItem(PKCE_KEY, JSON.stringify(pending));
  const url = new URL(config.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: realm.clientId,
    redirect_uri: `${location.origin}${CALLBACK_PATH}`,
    scope: realm.scope,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

/** Finish the flow on `/auth_callback`: exchange the code for tokens; resolves with where to go next. */
export async function completeOidcLogin(search: string): Promise<string> {
  const params = new URLSearchParams(search);
  const raw = sessionStorage.getItem(PKCE_KEY);
  sessionStorage.removeItem(PKCE_KEY);
  if (params.get('error') !== null) {
    throw new Error(
      `The identity provider refused the sign-in: ${params.get('error_description') ?? params.get('error')}`,
    );
  }
  if (raw === null) {
    throw new Error('No sign-in was started in this tab.');
  }
  const pending = JSON.parse(raw) as PendingLogin;
  const code = params.get('code');
  if (code === null || params.get('state') !== pending.state) {
    throw new Error('The sign-in answer does not match the request (state mismatch).');
  }
  const response = await fetch(pending.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${location.origin}${CALLBACK_PATH}`,
      client_id: pending.realm.clientId,
      code_verifier: pending.verifier,
    }).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as {
    id_token?: string;
    access_token?: string;
    error?: string;
  };
  if (!response.ok) {
    throw new Error(`The identity provider did not issue a token: ${body.error ?? `HTTP ${response.status}`}`);
  }
  // The reference dashboard sends the ID token (its audience is the client id the server expects).
  const token = body.id_token ?? body.access_token;
  if (token === undefined) {
    throw new Error('The identity provider answered without a token.');
  }
  setToken(token);
  return pending.returnTo;
}
