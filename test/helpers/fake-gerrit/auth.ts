/**
 * The fake Gerrit's HTTP authentication (`gerrit.authMode`), as Gerrit's `auth.type` makes it
 * answer under `/a/`:
 * - `basic`: `Authorization: Basic` with the account's HTTP password;
 * - `digest` (Gerrit before 2.15): HTTP Digest, MD5 with `qop=auth`, checked here on its own
 *   (not with the driver's code): a fresh nonce in every 401, each nonce count once, a nonce
 *   dropped by `gerrit.expireNonces()` is answered `stale=true`; git over HTTP too;
 * - `form`: `POST /login` with the form fields `username` and `password` answers a redirect
 *   setting the `GerritAccount` cookie (a bad password: 401); the REST endpoints take that cookie
 *   (clearing `sessions` ends them), git over HTTP keeps basic authentication.
 * Everything else is refused with 401.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type FakeAuthMode = 'basic' | 'digest' | 'form';

const REALM = 'Gerrit Code Review';

/** What the fake keeps to authenticate: nonces with their last count, sessions, logins made. */
export class FakeAuthState {
  mode: FakeAuthMode = 'basic';
  /** The nonces given, with the counts used with each (any order, each once, as Jetty's digest checks them). */
  readonly nonces = new Map<string, Set<number>>();
  readonly sessions = new Set<string>();
  /** Form logins accepted, and digest answers accepted. */
  logins = 0;
  digestAnswers = 0;

  constructor(
    readonly user: string,
    readonly password: string,
  ) {}
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** The fields of an `Authorization: Digest` header (quoted strings unescaped). */
function digestFields(header: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of header.slice('Digest '.length).matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    fields[match[1]] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
  }
  return fields;
}

/** Whether a Digest answer is right; `stale` when it was right for a nonce no longer kept. */
function checkDigest(state: FakeAuthState, req: IncomingMessage): 'ok' | 'stale' | 'bad' {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Digest ')) {
    return 'bad';
  }
  const f = digestFields(header);
  if (f.username !== state.user || f.realm !== REALM || f.uri !== req.url || f.qop !== 'auth') {
    return 'bad';
  }
  if ((f.algorithm ?? 'MD5') !== 'MD5' || !/^[0-9a-f]{8}$/.test(f.nc ?? '') || !f.cnonce) {
    return 'bad';
  }
  const ha1 = md5(`${state.user}:${REALM}:${state.password}`);
  const ha2 = md5(`${req.method ?? 'GET'}:${f.uri}`);
  if (f.response !== md5(`${ha1}:${f.nonce}:${f.nc}:${f.cnonce}:auth:${ha2}`)) {
    return 'bad';
  }
  const used = state.nonces.get(f.nonce);
  if (used === undefined) {
    return 'stale';
  }
  const count = parseInt(f.nc, 16);
  if (count === 0 || used.has(count)) {
    return 'bad'; // A replayed count.
  }
  used.add(count);
  state.digestAnswers += 1;
  return 'ok';
}

function refuseDigest(state: FakeAuthState, res: ServerResponse, stale: boolean): void {
  const nonce = randomBytes(12).toString('base64url');
  state.nonces.set(nonce, new Set());
  const challenge = `Digest realm="${REALM}", domain="/", qop="auth", nonce="${nonce}", algorithm=MD5`;
  res.writeHead(401, { 'www-authenticate': stale ? `${challenge}, stale=true` : challenge }).end('Unauthorized');
}

/** The `GerritAccount` cookie of a request. */
function sessionOf(req: IncomingMessage): string | undefined {
  return /(?:^|;\s*)GerritAccount=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
}

/** `POST /login` of form authentication; true when the request was one (answered). */
export async function handleLogin(state: FakeAuthState, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (state.mode !== 'form' || req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/login') {
    return false;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  if (
    !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') ||
    form.get('username') !== state.user ||
    form.get('password') !== state.password
  ) {
    res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
    return true;
  }
  const session = randomBytes(12).toString('hex');
  state.sessions.add(session);
  state.logins += 1;
  res.writeHead(302, { location: '/', 'set-cookie': [`GerritAccount=${session}; Path=/; HttpOnly`] }).end();
  return true;
}

const basicOf = (req: IncomingMessage): string => {
  const auth = req.headers.authorization ?? '';
  return auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
};

/**
 * Authenticate a request under `/a/` (`git`: one of git over HTTP). Answers 401 itself and
 * returns false when it is refused. An accepted digest request to git goes on with basic
 * credentials, as the git server of the fake reads them.
 */
export function authenticate(state: FakeAuthState, req: IncomingMessage, res: ServerResponse, git: boolean): boolean {
  const basic = `Basic ${Buffer.from(`${state.user}:${state.password}`).toString('base64')}`;
  if (state.mode === 'digest') {
    const verdict = checkDigest(state, req);
    if (verdict !== 'ok') {
      refuseDigest(state, res, verdict === 'stale');
      return false;
    }
    if (git) {
      req.headers.authorization = basic;
    }
    return true;
  }
  if (git || state.mode === 'basic') {
    if (git || basicOf(req) === `${state.user}:${state.password}`) {
      return true; // git checks its basic credentials itself
    }
    res.writeHead(401, { 'www-authenticate': `Basic realm="${REALM}"` }).end('Unauthorized');
    return false;
  }
  const session = sessionOf(req);
  if (session === undefined || !state.sessions.has(session)) {
    res.writeHead(401, { 'content-type': 'text/plain' }).end('Unauthorized');
    return false;
  }
  return true;
}
