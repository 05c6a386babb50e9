/**
 * A small OpenID Connect provider for end-to-end tests of the dashboard's sign-in (authorization
 * code flow with PKCE): a discovery document, an authorize endpoint that signs in one configured
 * user at once and redirects back with a code, a token endpoint that checks the client, the
 * redirect URI and the PKCE verifier before it issues an RS256 ID token, and the JWKS that
 * verifies it. Browsers call it from another origin, so it answers with CORS headers.
 */
import { createHash, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signJwt } from './sign-jwt';

export interface FakeOidcOptions {
  clientId: string;
  /** Claims of the signed-in user (besides iss, aud, iat, exp). */
  claims: Record<string, unknown>;
}

/** One token request as the provider judged it. */
export interface TokenExchange {
  outcome: 'issued' | 'invalid_grant' | 'invalid_client' | 'invalid_request';
  reason: string;
}

export interface FakeOidcProvider {
  /** The issuer: `http://127.0.0.1:<port>`. */
  issuer: string;
  /** Authorization requests seen, with their query. */
  authorizations: URLSearchParams[];
  exchanges: TokenExchange[];
  /** A code for `redirectUri` and `challenge`, as the authorize endpoint would hand out. */
  issueCode(redirectUri: string, challenge: string): string;
  close(): Promise<void>;
}

interface PendingCode {
  redirectUri: string;
  challenge: string;
}

const KID = 'fake-oidc-key';

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify(body));
}

export async function startFakeOidcProvider(options: FakeOidcOptions): Promise<FakeOidcProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...(publicKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kid: KID,
    use: 'sig',
    alg: 'RS256',
  };
  const codes = new Map<string, PendingCode>();
  const authorizations: URLSearchParams[] = [];
  const exchanges: TokenExchange[] = [];
  let issuer = '';

  const issueCode = (redirectUri: string, challenge: string): string => {
    const code = randomBytes(16).toString('base64url');
    codes.set(code, { redirectUri, challenge });
    return code;
  };

  const authorize = (url: URL, response: ServerResponse): void => {
    const query = url.searchParams;
    authorizations.push(query);
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== options.clientId || redirectUri === null) {
      json(response, 400, { error: 'invalid_request', error_description: 'unknown client or no redirect URI' });
      return;
    }
    const back = new URL(redirectUri);
    const challenge = query.get('code_challenge');
    if (query.get('response_type') !== 'code' || query.get('code_challenge_method') !== 'S256' || challenge === null) {
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', 'the code flow with an S256 PKCE challenge is required');
    } else {
      back.searchParams.set('code', issueCode(redirectUri, challenge));
    }
    back.searchParams.set('state', query.get('state') ?? '');
    response.writeHead(302, { location: back.toString() });
    response.end();
  };

  const token = async (request: IncomingMessage, response: ServerResponse, key: KeyObject): Promise<void> => {
    const form = new URLSearchParams(await readBody(request));
    const refuse = (outcome: TokenExchange['outcome'], reason: string): void => {
      exchanges.push({ outcome, reason });
      json(response, 400, { error: outcome, error_description: reason });
    };
    if (form.get('grant_type') !== 'authorization_code') {
      refuse('invalid_request', 'grant_type must be authorization_code');
      return;
    }
    if (form.get('client_id') !== options.clientId) {
      refuse('invalid_client', 'unknown client');
      return;
    }
    const code = form.get('code') ?? '';
    const pending = codes.get(code);
    codes.delete(code); // a code is good for one exchange, right or wrong
    if (pending === undefined) {
      refuse('invalid_grant', 'unknown or used code');
      return;
    }
    if (form.get('redirect_uri') !== pending.redirectUri) {
      refuse('invalid_grant', 'redirect_uri differs from the authorization request');
      return;
    }
    const verifier = form.get('code_verifier');
    if (verifier === null || s256(verifier) !== pending.challenge) {
      refuse('invalid_grant', 'PKCE verification failed');
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const idToken = signJwt(
      { iss: issuer, aud: options.clientId, iat: now, exp: now + 3600, ...options.claims },
      'RS256',
      { kind: 'private', key },
      { kid: KID },
    );
    exchanges.push({ outcome: 'issued', reason: 'PKCE verified' });
    json(response, 200, { token_type: 'Bearer', expires_in: 3600, id_token: idToken, access_token: idToken });
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
      });
      response.end();
      return;
    }
    if (request.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
        subject_types_supported: ['public'],
      });
    } else if (request.method === 'GET' && url.pathname === '/jwks') {
      json(response, 200, { keys: [jwk] });
    } else if (request.method === 'GET' && url.pathname === '/authorize') {
      authorize(url, response);
    } else if (request.method === 'POST' && url.pathname === '/token') {
      token(request, response, privateKey).catch(() => json(response, 500, { error: 'server_error' }));
    } else {
      json(response, 404, { error: 'not_found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    authorizations,
    exchanges,
    issueCode,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
