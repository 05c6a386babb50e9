/**
 * Serves the fake GitHub's bare repositories over git's smart HTTP protocol by running
 * `git http-backend` as a CGI program (docs/github.md#the-fake-github-for-tests). Requests must
 * carry HTTP basic credentials `x-access-token:<token>` with a token the fake accepts; without
 * them the answer is 401 with a Basic challenge, as GitHub does for private repositories.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runThroughHelper } from '../../../src/sources/git-runner';
import { NO_HOUSEKEEPING } from '../fixture-git';

export async function serveGit(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  tokenValid: (token: string) => boolean,
): Promise<void> {
  const auth = req.headers.authorization ?? '';
  const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
  const password = decoded.slice(decoded.indexOf(':') + 1);
  if (!decoded || !tokenValid(password)) {
    res.writeHead(401, { 'www-authenticate': 'Basic realm="fake-github"', 'content-type': 'text/plain' });
    res.end('authentication required');
    return;
  }
  const input: Buffer[] = [];
  for await (const chunk of req) {
    input.push(chunk as Buffer);
  }
  // Started by the small process of src/sources/git-runner.ts, as the server starts its git.
  const done = await runThroughHelper({
    file: 'git',
    args: ['http-backend'],
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
    input: Buffer.concat(input),
    env: {
      ...NO_HOUSEKEEPING,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      PATH_INFO: decodeURIComponent(url.pathname).replace(/\.git(\/|$)/, '$1'),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
    },
  });
  const output = done.stdout;
  const split = output.indexOf('\r\n\r\n');
  const headerEnd = split >= 0 ? split : output.indexOf('\n\n');
  const headerText = output.subarray(0, headerEnd).toString('utf8');
  const body = output.subarray(headerEnd + (split >= 0 ? 4 : 2));
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of headerText.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) {
      continue;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') {
      status = Number.parseInt(value, 10);
    } else {
      headers[name] = value;
    }
  }
  res.writeHead(status, headers);
  res.end(body);
}
