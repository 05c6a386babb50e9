/**
 * Serves the build log directory (`logs.dir`) read-only under the path of `logs.url` when that
 * URL points at this service, or under `/logs/` when `logs.url` is not set (docs/configuration.md#keys). Nothing outside the directory can be reached: `..` segments (raw
 * or percent-encoded), encoded slashes, control characters and symbolic links leading out are
 * refused. Files get a content type by extension, `nosniff`, and a sandboxing CSP so HTML
 * written by a job cannot run scripts on the service's origin. Folders of a build's logs answer
 * their manifest tree (JSON) or an index page (docs/logs.md#folder-urls); other folders and
 * missing files are 404 JSON.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import type Koa from 'koa';
import type { ServiceConfig } from '../config/service';
import { resolveInside, UnsafePathError } from '../executor/log-paths';
import { answerFolder, BUILD_FOLDER_DEPTH, listableFolder } from './log-index';

const CONTENT_TYPES: Record<string, string> = {
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.yaml': 'text/plain; charset=utf-8',
  '.yml': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.zip': 'application/zip',
};

/** Content type of a log file by its extension (unknown extensions: application/octet-stream). */
export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The content type of the file inside a compressed text log (`job-output.json.gz`:
 * `application/json`), served with `Content-Encoding: gzip` to clients that accept it, as the
 * reference's log servers do (docs/logs.md#folder-urls); null for other files (archives stay
 * `application/gzip`).
 */
export function gzippedContentType(file: string): string | null {
  const lower = file.toLowerCase();
  if (!lower.endsWith('.gz')) {
    return null;
  }
  const innerExtension = path.extname(lower.slice(0, -'.gz'.length));
  if (['.tar', '.gz', '.zip'].includes(innerExtension)) {
    return null;
  }
  return CONTENT_TYPES[innerExtension] ?? null;
}

/** Where the logs are served when `logs.url` is not set. */
export const DEFAULT_LOGS_PATH = '/logs/';

/**
 * The path under which this service serves `logs.dir`, or null when `logs.url` points
 * elsewhere. Without `logs.url` the logs are served under `/logs/`. A relative `logs.url`
 * (starting with "/") is always served; an absolute one is served when it has the origin of
 * `api.publicUrl`, or names a loopback host on the port the service listens on.
 */
export function logsMountPath(config: Pick<ServiceConfig, 'logs' | 'api' | 'listen'>): string | null {
  const logsUrl = config.logs.url;
  if (logsUrl === undefined) {
    return DEFAULT_LOGS_PATH;
  }
  if (logsUrl.startsWith('/')) {
    return withTrailingSlash(logsUrl);
  }
  let url: URL;
  try {
    url = new URL(logsUrl);
  } catch {
    return null;
  }
  const publicOrigin = config.api.publicUrl ? new URL(config.api.publicUrl).origin : null;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (url.origin === publicOrigin || (loopback && port === config.listen.port)) {
    return withTrailingSlash(url.pathname);
  }
  return null;
}

/**
 * The URL prefix of build logs (each build's `log_url` is this followed by its directory):
 * `logs.url` when set; otherwise `/logs/` on `api.publicUrl`, else on `listening`, the address
 * the service really listens on (so a `PORT` override moves the log links with it). Undefined
 * until the service listens.
 */
export function publicLogsUrl(
  config: Pick<ServiceConfig, 'logs' | 'api'>,
  listening: string | undefined,
): string | undefined {
  if (config.logs.url !== undefined) {
    return config.logs.url;
  }
  const base = config.api.publicUrl ?? listening;
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}${DEFAULT_LOGS_PATH}`;
}

export interface LogFilesOptions {
  /** The log directory (`logs.dir`). */
  dir: string;
  /** URL path prefix, e.g. `/logs/`. */
  mountPath: string;
}

/** Koa middleware serving `dir` read-only under `mountPath`. */
export function logFiles(options: LogFilesOptions): Koa.Middleware {
  const mount = withTrailingSlash(options.mountPath);
  const mountWithoutSlash = mount.slice(0, -1);
  return async (ctx, next) => {
    if (ctx.path !== mountWithoutSlash && !ctx.path.startsWith(mount)) {
      return next();
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      fail(ctx, 405, 'MethodNotAllowed', 'Specified method is invalid for this resource');
      return;
    }
    const relative = decodeRelativePath(ctx.path.slice(mount.length));
    if (relative === null) {
      fail(ctx, 400, 'BadRequest', 'Invalid log path');
      return;
    }
    const folder = listableFolder(relative) ? await locateFolder(options.dir, relative) : null;
    if (folder !== null) {
      if (!ctx.path.endsWith('/')) {
        // Relative links of the index page need the trailing slash.
        ctx.status = 301;
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.redirect(`${ctx.path}/`);
        return;
      }
      await answerFolder(ctx, {
        root: options.dir,
        path: folder,
        urlPath: ctx.path,
        atBuildRoot: depthOf(relative) === BUILD_FOLDER_DEPTH,
      });
      return;
    }
    const file = await locate(options.dir, relative);
    // A compressed text log that is not there but whose plain file is (`job-output.json.gz`,
    // which the reference's dashboard asks for first; docs/logs.md#reference-behaviour) is the
    // plain file compressed as it is sent.
    const plain =
      file === null && gzippedContentType(relative) !== null ? await locate(options.dir, relative.slice(0, -3)) : null;
    const served = file ?? plain;
    if (served === null) {
      fail(ctx, 404, 'NotFound', 'Log file not found');
      return;
    }
    ctx.status = 200;
    const inner = gzippedContentType(relative);
    ctx.set('Vary', 'Accept-Encoding');
    if (inner !== null && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Type', inner);
      ctx.set('Content-Encoding', 'gzip');
    } else {
      ctx.set('Content-Type', contentTypeFor(relative));
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', 'sandbox');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Last-Modified', served.modified.toUTCString());
    if (plain !== null) {
      // Its compressed length is known only once it is sent.
      if (ctx.method === 'GET') {
        ctx.body = createReadStream(plain.path).pipe(createGzip());
      }
      return;
    }
    if (ctx.method === 'GET') {
      ctx.body = createReadStream(served.path);
    }
    // After the body: Koa drops the length of a stream body it cannot measure.
    ctx.length = served.size;
  };
}

/** Decode each segment; null when a segment is undecodable or decodes to a separator or `..`. */
export function decodeRelativePath(raw: string): string | null {
  const segments: string[] = [];
  for (const part of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (segment.includes('/') || segment.includes('\\') || segment === '..') {
      return null;
    }
    segments.push(segment);
  }
  return segments.join('/');
}

/** Segments of a relative path that name something (`""` and `.` do not). */
function depthOf(relative: string): number {
  return relative.split('/').filter((segment) => segment !== '' && segment !== '.').length;
}

/** The path `relative` names inside `dir`, or null when it would leave `dir`. */
function candidateInside(dir: string, relative: string): string | null {
  try {
    return resolveInside(dir, relative);
  } catch (err) {
    if (err instanceof UnsafePathError) {
      return null;
    }
    throw err;
  }
}

/** The real directory at `relative` inside `dir` (not reached through a symbolic link), or null. */
async function locateFolder(dir: string, relative: string): Promise<string | null> {
  const candidate = candidateInside(dir, relative);
  if (candidate === null) {
    return null;
  }
  try {
    const [root, real] = await Promise.all([realpath(dir), realpath(candidate)]);
    // Equal only when no component of the path is a symbolic link (log folders hold none).
    if (real !== path.join(root, path.relative(path.resolve(dir), candidate))) {
      return null;
    }
    return (await stat(real)).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The regular file at `relative` inside `dir`, following symbolic links only within `dir`. */
export async function locate(
  dir: string,
  relative: string,
): Promise<{ path: string; size: number; modified: Date } | null> {
  const candidate = candidateInside(dir, relative);
  if (candidate === null) {
    return null;
  }
  try {
    const [root, real] = await Promise.all([realpath(dir), realpath(candidate)]);
    if (real !== root && !real.startsWith(root + path.sep)) {
      return null;
    }
    const info = await stat(real);
    return info.isFile() ? { path: real, size: info.size, modified: info.mtime } : null;
  } catch {
    return null;
  }
}

function fail(ctx: Koa.Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.body = { error, description };
}

function withTrailingSlash(value: string): string {
  return value.endsWith('/') ? value : `${value}/`;
}
