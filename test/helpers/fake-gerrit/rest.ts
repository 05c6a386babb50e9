/**
 * The fake Gerrit's HTTP side (test/helpers/fake-gerrit/server.ts): everything under `/a/` with
 * the authentication of `gerrit.auth.mode` (basic, digest or form with `/login`, auth.ts), git over HTTP (`git http-backend`) for paths that are no REST
 * endpoint, and the REST endpoints the driver uses (docs/gerrit.md#rest-api), answered with
 * Gerrit's `)]}'` prefix. Every REST request is recorded in `gerrit.requests`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveGit } from '../fake-github/git-http';
import { authenticate, handleLogin } from './auth';
import { changeJson } from './change-json';
import { queryChanges, related } from './queries';
import { branchHead, changedFiles, listBranches } from './repos';
import type { FakeChange, FakeGerrit } from './server';

/** Answer one HTTP request of the fake Gerrit. */
export async function handleRequest(gerrit: FakeGerrit, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', gerrit.url);
  if (await handleLogin(gerrit.auth, req, res)) {
    return;
  }
  if (!url.pathname.startsWith('/a/')) {
    res.writeHead(404).end('Not found');
    return;
  }
  const git = !/^\/a\/(changes|projects|config|plugins)\//.test(url.pathname);
  if (!authenticate(gerrit.auth, req, res, git)) {
    return;
  }
  const auth = req.headers.authorization ?? '';
  const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
  if (git) {
    const gitUrl = new URL(url.toString());
    gitUrl.pathname = url.pathname.slice(2);
    await serveGit(
      gerrit.root,
      req,
      res,
      gitUrl,
      (password) => decoded === `${gerrit.user}:${password}` && password === gerrit.password,
    );
    return;
  }
  if (url.pathname.startsWith('/a/changes/') || url.pathname.startsWith('/a/plugins/checks/')) {
    await gerrit.waitWhileHeld(decodeURIComponent(url.pathname));
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const body: unknown = text === '' ? undefined : JSON.parse(text);
  gerrit.requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, body, at: Date.now() });
  if (url.pathname === '/a/plugins/events-log/events/' && gerrit.eventsLog.installed) {
    const [status, text] = gerrit.eventsLog.failing ? [503, 'Service Unavailable\n'] : [200, eventsLog(gerrit, url)];
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' }).end(text);
    return;
  }
  const answer = await route(gerrit, req.method ?? 'GET', url, body);
  if (typeof answer === 'string' || answer === undefined) {
    const [status, message] = answer === undefined ? [404, 'Not found'] : answer.split('|', 2);
    res.writeHead(Number(status), { 'content-type': 'text/plain' }).end(`${message}\n`);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  const json = url.pathname === '/a/config/server/version' ? (answer as string[])[0] : answer;
  res.end(`)]}'\n${JSON.stringify(json)}`);
}

/** A JSON answer, `<status>|<text>` for an error, undefined for 404. */
async function route(gerrit: FakeGerrit, method: string, url: URL, body: unknown): Promise<unknown> {
  const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
  const options = url.searchParams.getAll('o');
  if (parts.join('/') === 'config/server/version' && method === 'GET') {
    return [gerrit.version]; // a JSON string, sent unwrapped by handleRequest
  }
  if (parts[0] === 'projects' && parts[2] === 'branches' && !parts[3] && method === 'GET') {
    return (await listBranches(gerrit.root, parts[1]).catch(() => undefined)) ?? undefined;
  }
  if (parts[0] === 'projects' && parts[2] === 'branches' && method === 'GET') {
    const revision = await branchHead(gerrit.root, parts[1], parts[3]).catch(() => undefined);
    return revision === undefined ? undefined : { ref: `refs/heads/${parts[3]}`, revision };
  }
  if (parts[0] === 'plugins' && parts[1] === 'checks' && method === 'GET') {
    return checksPlugin(gerrit, parts[2], url.searchParams.get('query') ?? '');
  }
  if (parts[0] !== 'changes') {
    return undefined;
  }
  if (parts[1] === '' && method === 'GET') {
    const found = queryChanges(gerrit.changes, url.searchParams.get('q') ?? '');
    return found.map((c) => changeJson(c, gerrit.labels, options));
  }
  const number = Number(parts[1].split('~').at(-1));
  const change = gerrit.changes.find((c) => c.number === number);
  if (!change) {
    return undefined;
  }
  if (parts.length === 2 && method === 'GET') {
    return changeJson(change, gerrit.labels, options);
  }
  if (parts[2] === 'revisions' && parts[4] === 'files' && method === 'GET') {
    const files = await revisionFiles(gerrit, change, parts[3]);
    return files === undefined ? undefined : Object.fromEntries(files.map((file) => [file, { lines_inserted: 1 }]));
  }
  if (parts[2] === 'revisions' && parts[4] === 'review' && method === 'POST') {
    const review = body as FakeChange['reviews'][number];
    // As Gerrit: a comment on a file the patch set does not have refuses the whole review.
    const files = await revisionFiles(gerrit, change, parts[3]);
    const stray = Object.keys(review.comments ?? {}).find((file) => !(files ?? []).includes(file));
    if (stray !== undefined) {
      return `400|file ${stray} not found in revision ${change.number},${parts[3]}`;
    }
    const fault = gerrit.reviewFaults.shift();
    if (fault === 'refuse') {
      return '503|Service Unavailable';
    }
    gerrit.postReview(change, parts[3], review);
    return fault === 'lose-answer' ? '502|Bad Gateway' : { labels: review.labels ?? {} };
  }
  if (parts[2] === 'revisions' && parts[4] === 'related' && method === 'GET') {
    const patchset = change.patchsets.find((p) => p.revision === parts[3] || String(p.number) === parts[3]);
    return patchset === undefined ? undefined : related(gerrit.changes, patchset.revision);
  }
  if (parts[2] === 'submit' && method === 'POST') {
    return gerrit.submit(change);
  }
  return undefined;
}

/** Gerrit's files of a patch set (by number or revision): `/COMMIT_MSG` and those it changes; undefined when none such. */
async function revisionFiles(gerrit: FakeGerrit, change: FakeChange, id: string): Promise<string[] | undefined> {
  const patchset = change.patchsets.find((p) => p.revision === id || String(p.number) === id);
  return patchset === undefined
    ? undefined
    : ['/COMMIT_MSG', ...(await changedFiles(gerrit.root, change.project, patchset.revision))];
}

/**
 * The checks plugin: its checkers (`checkers/`) and the checks pending of a checker
 * (`checks.pending/?query=checker:<uuid> (state:NOT_STARTED)`), by patch set.
 */
function checksPlugin(gerrit: FakeGerrit, endpoint: string, query: string): unknown {
  if (endpoint === 'checkers') {
    return gerrit.checkers;
  }
  const checker = /checker:(\S+)/.exec(query)?.[1];
  if (endpoint !== 'checks.pending' || checker === undefined || !query.includes('state:NOT_STARTED')) {
    return undefined;
  }
  const pending = gerrit.pendingChecks.filter((check) => check.uuid === checker);
  const patchSets = [...new Set(pending.map((check) => `${check.change},${check.patchset}`))];
  return patchSets.map((key) => {
    const [number, patchset] = key.split(',').map(Number);
    const change = gerrit.change(number);
    const checks = pending.filter((check) => check.change === number && check.patchset === patchset);
    return {
      patch_set: { repository: change.project, change_number: number, patch_set_id: patchset },
      pending_checks: Object.fromEntries(checks.map((check) => [check.uuid, { state: 'NOT_STARTED' }])),
    };
  });
}

/**
 * The events-log plugin's answer: the lines emitted after `t1` and before `t2` (`yyyy-MM-dd
 * HH:mm:ss`, optionally with milliseconds, or `yyyy-MM-dd`; read as UTC, this server's zone),
 * one a line, oldest first.
 */
function eventsLog(gerrit: FakeGerrit, url: URL): string {
  const time = (name: string, otherwise: number) => {
    const value = url.searchParams.get(name);
    const match = value === null ? null : /^(\d{4}-\d\d-\d\d)(?:[ T](\d\d:\d\d:\d\d(?:\.\d+)?))?$/.exec(value);
    return match === null ? otherwise : Date.parse(`${match[1]}T${match[2] ?? '00:00:00'}Z`);
  };
  const from = time('t1', -Infinity);
  const to = time('t2', Infinity);
  return gerrit.eventsLog.lines
    .filter(({ at }) => at > from && at < to)
    .map(({ line }) => `${line}\n`)
    .join('');
}
