/**
 * Conditional requests on the fake GitHub (docs/github.md#the-fake-github-for-tests): every
 * GET answered 200 carries an ETag of its body, and a GET whose `If-None-Match` names the
 * current ETag is answered `304 Not Modified` without a body, as GitHub does. Requests are
 * counted by kind so tests can assert what a read cost.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** A weak ETag of the body: it changes whenever the answer would change. */
export function etagOf(text: string): string {
  return `W/"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"`;
}

/** Whether the request's `If-None-Match` names the ETag (weak comparison, a list, or `*`). */
export function matchesIfNoneMatch(headers: IncomingHttpHeaders, etag: string): boolean {
  const header = headers['if-none-match'];
  if (header === undefined) {
    return false;
  }
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** A request's kind: its method and path with the repository, numbers and commit ids left out. */
export function requestKind(method: string, path: string): string {
  const rest = path
    .replace(/^\/repos\/[^/]+\/[^/]+/, '')
    .replace(/\/[0-9a-f]{40}(?=\/|$)/g, '/:sha')
    .replace(/\/\d+(?=\/|$)/g, '/:n')
    .replace(/\/collaborators\/[^/]+/, '/collaborators/:user');
  return `${method} ${rest || '/'}`;
}

export interface RequestCount {
  /** Answered with a body (200, or any other status but 304). */
  full: number;
  /** Answered 304 Not Modified (GitHub does not count them against the rate limit). */
  notModified: number;
}

/** The requests from index `since` on, counted by kind. */
export function countByKind(
  requests: ReadonlyArray<{ method: string; path: string; status: number }>,
  since = 0,
): Map<string, RequestCount> {
  const counts = new Map<string, RequestCount>();
  for (const request of requests.slice(since)) {
    const kind = requestKind(request.method, request.path);
    const count = counts.get(kind) ?? { full: 0, notModified: 0 };
    if (request.status === 304) {
      count.notModified += 1;
    } else {
      count.full += 1;
    }
    counts.set(kind, count);
  }
  return counts;
}

/** Send a JSON answer, or 304 when it is a GET the client already has; returns the status sent. */
export function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  json: unknown,
  headers: Record<string, string>,
): number {
  const text = JSON.stringify(json);
  const etag = req.method === 'GET' && status === 200 ? etagOf(text) : null;
  const code = etag !== null && matchesIfNoneMatch(req.headers, etag) ? 304 : status;
  const validator = etag === null ? {} : { etag };
  res.writeHead(code, {
    'content-type': 'application/json',
    'x-ratelimit-remaining': '4999',
    ...validator,
    ...headers,
  });
  res.end(code === 304 ? undefined : text);
  return code;
}
