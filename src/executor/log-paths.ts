/**
 * Where build logs live. Each build gets the directory `<tenant>/<first two characters of the
 * build uuid>/<build uuid>/` under the service configuration's `logs.dir`; the whole output is
 * `job-output.txt` in it and `log_url` is `logs.url` followed by the same relative path.
 */
import path from 'node:path';
import { hasControlCharacter } from '../model/value-checks';

export const JOB_OUTPUT_FILE = 'job-output.txt';

export class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

/**
 * Resolve `relative` (segments separated by "/") inside `root`, refusing anything that could
 * leave it: absolute paths, `..` segments, backslashes, NUL and other control characters.
 * The check is lexical; `log-files` additionally resolves symbolic links before serving.
 */
export function resolveInside(root: string, relative: string): string {
  if (relative.startsWith('/') || relative.includes('\\') || hasControlCharacter(relative)) {
    throw new UnsafePathError(`unsafe path "${relative}"`);
  }
  const segments = relative.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) {
    throw new UnsafePathError(`unsafe path "${relative}"`);
  }
  const base = path.resolve(root);
  const full = path.resolve(base, ...segments);
  if (full !== base && !full.startsWith(base + path.sep)) {
    throw new UnsafePathError(`path "${relative}" leaves ${base}`);
  }
  return full;
}

/** The build's log directory relative to `logs.dir`, with a trailing slash. */
export function buildLogRelativePath(tenant: string, buildUuid: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(tenant) || tenant === '.' || tenant === '..') {
    throw new UnsafePathError(`invalid tenant name "${tenant}"`);
  }
  if (!/^[A-Za-z0-9-]{2,64}$/.test(buildUuid)) {
    throw new UnsafePathError(`invalid build uuid "${buildUuid}"`);
  }
  return `${tenant}/${buildUuid.slice(0, 2)}/${buildUuid}/`;
}

/** Absolute log directory of a build. */
export function buildLogDir(logsDir: string, tenant: string, buildUuid: string): string {
  return resolveInside(logsDir, buildLogRelativePath(tenant, buildUuid));
}

/** Public URL of a build's log directory, or null when `logs.url` is not configured. */
export function buildLogUrl(logsUrl: string | undefined, tenant: string, buildUuid: string): string | null {
  if (logsUrl === undefined || logsUrl === '') {
    return null;
  }
  const base = logsUrl.endsWith('/') ? logsUrl : `${logsUrl}/`;
  return `${base}${buildLogRelativePath(tenant, buildUuid)}`;
}
