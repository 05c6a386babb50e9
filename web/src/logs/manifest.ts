/**
 * The log manifest of a build (`zuul-manifest.json`, the reference's tree of the log folder;
 * docs/dashboard.md#log-file-browser): found as the artifact whose `metadata.type` is
 * `zuul_manifest`, read from the log server, checked entry by entry (a malformed entry is left
 * out, never a crash), and turned into paths and URLs under the build's log URL.
 */

export interface LogEntry {
  name: string;
  /** Slash-separated path from the log folder, without a leading slash. */
  path: string;
  mimetype: string;
  /** Compression of the stored file (`gzip`...), null when none. */
  encoding: string | null;
  size: number | null;
  /** Present for folders (`application/directory`). */
  children?: LogEntry[];
}

export interface LogManifest {
  tree: LogEntry[];
  /** Folder links need `index.html` appended (the log server lists no folders). */
  indexLinks: boolean;
}

export const DIRECTORY = 'application/directory';
/** Files larger than this open as raw links rather than in the page. */
export const VIEWER_MAX_BYTES = 5 * 1024 * 1024;

interface ArtifactLike {
  name: string;
  url: string;
  metadata?: unknown;
}

/** The manifest artifact of a build, if it has one. */
export function manifestArtifact<A extends ArtifactLike>(artifacts: readonly A[]): A | undefined {
  return artifacts.find((artifact) => {
    const metadata = artifact.metadata;
    return (
      typeof metadata === 'object' && metadata !== null && (metadata as { type?: unknown }).type === 'zuul_manifest'
    );
  });
}

/** An absolute URL for `url` relative to the build's log URL (itself possibly relative to the page). */
export function resolveLogUrl(url: string, logUrl: string | null, page: string): string {
  const base = logUrl === null ? page : new URL(logUrl, page).toString();
  return new URL(url, base).toString();
}

function entries(value: unknown, parent: string, depth: number): LogEntry[] {
  if (!Array.isArray(value) || depth > 64) {
    return [];
  }
  const out: LogEntry[] = [];
  for (const raw of value) {
    if (typeof raw !== 'object' || raw === null) {
      continue;
    }
    const item = raw as Record<string, unknown>;
    const name = item.name;
    if (typeof name !== 'string' || name === '' || name === '.' || name === '..' || name.includes('/')) {
      continue;
    }
    const path = parent === '' ? name : `${parent}/${name}`;
    const mimetype = typeof item.mimetype === 'string' ? item.mimetype : 'application/octet-stream';
    const entry: LogEntry = {
      name,
      path,
      mimetype,
      encoding: typeof item.encoding === 'string' ? item.encoding : null,
      size: typeof item.size === 'number' && Number.isFinite(item.size) ? item.size : null,
    };
    if (mimetype === DIRECTORY || Array.isArray(item.children)) {
      entry.mimetype = DIRECTORY;
      entry.children = entries(item.children, path, depth + 1);
    }
    out.push(entry);
  }
  return out;
}

/** The manifest in `json`, or an error saying why it is not one. */
export function parseManifest(json: unknown): LogManifest | Error {
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { tree?: unknown }).tree)) {
    return new Error('The log manifest has no tree.');
  }
  const raw = json as { tree: unknown[]; index_links?: unknown };
  return { tree: entries(raw.tree, '', 0), indexLinks: raw.index_links === true };
}

/** The entry at `path` (slash-separated), or undefined. */
export function findEntry(tree: readonly LogEntry[], path: string): LogEntry | undefined {
  let level: readonly LogEntry[] | undefined = tree;
  let found: LogEntry | undefined;
  for (const name of path.split('/').filter((part) => part !== '')) {
    found = level?.find((entry) => entry.name === name);
    if (found === undefined) {
      return undefined;
    }
    level = found.children;
  }
  return found;
}

/** The folders on the way to `path` (its ancestors), so a deep link opens them. */
export function ancestors(path: string): string[] {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('/'));
}

/** Whether the page shows the file itself (plain text, not compressed, not too big). */
export function viewable(entry: LogEntry): boolean {
  return (
    entry.children === undefined &&
    entry.mimetype === 'text/plain' &&
    entry.encoding === null &&
    (entry.size === null || entry.size <= VIEWER_MAX_BYTES)
  );
}

/** URL of an entry on the log server: each path segment encoded; folders end with `/` (or `index.html`). */
export function entryUrl(logUrl: string, entry: LogEntry, indexLinks: boolean): string {
  const path = entry.path.split('/').map(encodeURIComponent).join('/');
  if (entry.children === undefined) {
    return `${logUrl}${path}`;
  }
  return `${logUrl}${path}/${indexLinks ? 'index.html' : ''}`;
}

/** "512 B", "1.5 KiB", "3.2 MiB". */
export function formatSize(bytes: number | null): string {
  if (bytes === null) {
    return '';
  }
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
