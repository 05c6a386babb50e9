/**
 * Serves a static single-page build (the built-in dashboard, or any build named by `web.sites`,
 * docs/configuration.md#keys) read-only under a URL path. A path naming a file serves it; a path
 * naming none whose last segment has no extension (or that is a build log viewer path) is a deep
 * link and gets the build's `index.html` (the page's router takes it from there); anything else is 404. Paths are
 * confined to the directory the same way as build logs (log-files.ts).
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { contentTypeFor, decodeRelativePath, locate } from './log-files';

const EXTRA_TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The build log viewer's route (`t/<tenant>/build/<uuid>/log/<file>`, the reference dashboard's
 * and Sluice's, docs/dashboard.md#log-file-browser): a deep link although its file name has an extension.
 */
const LOG_VIEWER_PATH = /(^|\/)build\/[^/]+\/log\/./;

export interface SpaSiteOptions {
  /** The build directory (holding `index.html`). */
  dir: string;
  /** URL path prefix, `/` or e.g. `/zuul`. */
  mountPath: string;
  /** Served instead of 404s for deep links while `dir` has no `index.html` (the dashboard is not built). */
  missingBuild?: (ctx: Koa.Context) => void;
}

/** Koa middleware serving the build; requests outside the mount path pass through. */
export function spaSite(options: SpaSiteOptions): Koa.Middleware {
  const prefix = options.mountPath.replace(/\/+$/, '');
  return async (ctx, next) => {
    const relativeRaw = relativeToMount(ctx.path, prefix);
    if (relativeRaw === null || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      return next();
    }
    if (prefix !== '' && ctx.path === prefix) {
      ctx.redirect(`${prefix}/${ctx.querystring === '' ? '' : `?${ctx.querystring}`}`);
      return;
    }
    const relative = decodeRelativePath(relativeRaw);
    if (relative === null) {
      ctx.status = 400;
      ctx.body = 'Invalid path';
      return;
    }
    const file = relative === '' ? null : await locate(options.dir, relative);
    if (file !== null) {
      send(ctx, file, isHashedAsset(relative) ? 'public, max-age=31536000, immutable' : 'no-cache');
      return;
    }
    if (path.extname(relative) !== '' && !LOG_VIEWER_PATH.test(relative)) {
      return next(); // a missing asset is a 404, not the page
    }
    const index = await locate(options.dir, 'index.html');
    if (index === null) {
      if (options.missingBuild) {
        options.missingBuild(ctx);
        return;
      }
      return next();
    }
    send(ctx, index, 'no-cache');
  };
}

/** The part of `requestPath` below the mount prefix ('' for the mount itself), or null outside it. */
function relativeToMount(requestPath: string, prefix: string): string | null {
  if (prefix === '') {
    return requestPath.slice(1);
  }
  if (requestPath === prefix) {
    return '';
  }
  return requestPath.startsWith(`${prefix}/`) ? requestPath.slice(prefix.length + 1) : null;
}

/** Vite puts content-hashed files under `assets/`: they never change, so browsers may keep them. */
function isHashedAsset(relative: string): boolean {
  return relative.startsWith('assets/') && /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(relative);
}

function send(ctx: Koa.Context, file: { path: string; size: number; modified: Date }, cacheControl: string): void {
  ctx.status = 200;
  ctx.set('Content-Type', EXTRA_TYPES[path.extname(file.path).toLowerCase()] ?? contentTypeFor(file.path));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('Last-Modified', file.modified.toUTCString());
  if (ctx.method === 'GET') {
    ctx.body = createReadStream(file.path);
  }
  ctx.length = file.size; // after the body: Koa drops the length of a stream it cannot measure
}
