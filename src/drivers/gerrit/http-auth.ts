/**
 * How the Gerrit client authenticates its REST requests, by the connection's `auth_type`
 * (docs/gerrit.md#http-authentication), as the reference does:
 * - `basic`: `Authorization: Basic` with `user` and `password` on every request;
 * - `digest`: HTTP Digest (src/drivers/gerrit/http-digest.ts): a request answered 401 with a
 *   Digest challenge is sent once more with the answer; the challenge is kept and answered on the
 *   next requests (nonce count going up) until Gerrit asks again (a new or stale nonce);
 * - `form`: a request answered 401 logs in by posting `username` and `password` (a form) to
 *   `/login` at the root of the server's URL, as the reference's FormAuth does, and is sent once
 *   more with the session cookies the login set. Unlike the reference, which logs in again for
 *   every request, the cookies are kept for the next requests until Gerrit answers 401 again.
 * Bodies are strings, so a request can be sent twice.
 */
import { digestAuthorization, digestChallenge, type AuthChallenge } from './http-digest';

export type AuthType = 'basic' | 'digest' | 'form';

export interface GerritAuthSettings {
  user: string;
  password?: string;
  auth_type: string;
}

/** What a request is, without authentication: sent again as it was when Gerrit asks for it. */
export interface PlainRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export type GerritFetch = (url: string, request: PlainRequest) => Promise<Response>;

/** `fetch` with the connection's authentication. */
export function gerritFetch(settings: GerritAuthSettings): GerritFetch {
  const password = settings.password ?? '';
  if (settings.auth_type === 'digest') {
    return digestFetch(settings.user, password);
  }
  if (settings.auth_type === 'form') {
    return formFetch(settings.user, password);
  }
  const authorization = `Basic ${Buffer.from(`${settings.user}:${password}`).toString('base64')}`;
  return (url, request) => fetch(url, { ...request, headers: { ...request.headers, authorization } });
}

function digestFetch(username: string, password: string): GerritFetch {
  let kept: { challenge: AuthChallenge; nc: number } | null = null;
  const answer = (method: string, url: string): Record<string, string> => {
    if (kept === null) {
      return {};
    }
    kept.nc += 1;
    const target = new URL(url);
    const authorization = digestAuthorization(kept.challenge, {
      method,
      uri: `${target.pathname}${target.search}`,
      username,
      password,
      nc: kept.nc,
    });
    return { authorization };
  };
  return async (url, request) => {
    const send = () => fetch(url, { ...request, headers: { ...request.headers, ...answer(request.method, url) } });
    const first = await send();
    const challenge = first.status === 401 ? digestChallenge(first.headers.get('www-authenticate')) : null;
    if (challenge === null) {
      return first;
    }
    await first.body?.cancel();
    kept = { challenge, nc: 0 };
    return send();
  };
}

function formFetch(username: string, password: string): GerritFetch {
  let cookie: string | null = null;
  const send = (url: string, request: PlainRequest) =>
    fetch(url, { ...request, headers: { ...request.headers, ...(cookie === null ? {} : { cookie }) } });
  return async (url, request) => {
    const first = await send(url, request);
    if (first.status !== 401) {
      return first;
    }
    const login = await fetch(new URL('/login', url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password }).toString(),
      // The session cookie comes with Gerrit's redirect after the login: it must not be followed.
      redirect: 'manual',
      signal: request.signal,
    });
    await login.body?.cancel();
    if (login.status === 401) {
      // As the reference: the login was refused, the first answer stands.
      return first;
    }
    await first.body?.cancel();
    const cookies = login.headers.getSetCookie().map((line) => line.split(';')[0].trim());
    cookie = cookies.length > 0 ? cookies.join('; ') : null;
    return send(url, request);
  };
}
