/**
 * The log manifest (docs/logs.md#zuul-manifestjson): the tree of a build's log folder with each
 * file's mimetype, encoding, size and modification time, written as `zuul-manifest.json` when
 * the build ends and published as the build's `zuul_manifest` artifact; the log server answers
 * folder URLs with the same tree (docs/logs.md#folder-urls). Only what lies inside the folder is
 * listed: symbolic links to directories are not followed and links leading out are left out.
 */
import { lstat, readdir, realpath, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildArtifact } from '../model/build-request';

export const MANIFEST_FILE = 'zuul-manifest.json';
/** The artifact clients look for (docs/logs.md#the-manifest-artifact). */
export const MANIFEST_ARTIFACT_NAME = 'Zuul Manifest';
export const MANIFEST_ARTIFACT_TYPE = 'zuul_manifest';
export const DIRECTORY_MIMETYPE = 'application/directory';
/** Entries listed at most in one tree (a job writing more files gets a truncated tree). */
export const MANIFEST_MAX_ENTRIES = 20_000;

export interface ManifestFileEntry {
  name: string;
  mimetype: string;
  encoding: string | null;
  /** Epoch seconds. */
  last_modified: number;
  size: number;
}

export interface ManifestDirectoryEntry {
  name: string;
  mimetype: typeof DIRECTORY_MIMETYPE;
  encoding: null;
  children: ManifestEntry[];
}

export type ManifestEntry = ManifestFileEntry | ManifestDirectoryEntry;

export interface ManifestDocument {
  tree: ManifestEntry[];
  index_links: boolean;
  /** Sluice: present (true) only when the folder had more than MANIFEST_MAX_ENTRIES entries. */
  truncated?: true;
}

/** Compression suffixes: the mimetype is then the inner file's (docs/logs.md#zuul-manifestjson). */
const ENCODINGS: Record<string, string> = { '.gz': 'gzip', '.bz2': 'bzip2', '.xz': 'xz', '.br': 'br' };

const MIMETYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.yaml': 'text/plain',
  '.yml': 'text/plain',
  '.md': 'text/plain',
  '.conf': 'text/plain',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'application/javascript',
  '.xml': 'text/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.tar': 'application/x-tar',
  '.tgz': 'application/x-tar',
  '.zip': 'application/zip',
};

/** Mimetype and encoding of a log file by its name; unknown types are `text/plain`, as in the reference. */
export function manifestTypeOf(name: string): { mimetype: string; encoding: string | null } {
  let base = name.toLowerCase();
  let encoding: string | null = null;
  const outer = path.extname(base);
  if (outer in ENCODINGS) {
    encoding = ENCODINGS[outer];
    base = base.slice(0, -outer.length);
  }
  if (outer === '.tgz') {
    encoding = 'gzip';
  }
  return { mimetype: MIMETYPES[path.extname(base)] ?? 'text/plain', encoding };
}

/**
 * The tree of `dir` (directories first, then files, each sorted by name), as long as `root`
 * contains it. `exclude` names files of `dir` itself to leave out (the manifest file).
 */
export async function manifestTree(
  root: string,
  dir: string = root,
  exclude: readonly string[] = [],
  maxEntries: number = MANIFEST_MAX_ENTRIES,
): Promise<{ tree: ManifestEntry[]; truncated: boolean }> {
  const realRoot = await realpath(root);
  const budget = { left: maxEntries };
  const tree = await walk(realRoot, dir, exclude, budget);
  return { tree, truncated: budget.left < 0 };
}

async function walk(
  realRoot: string,
  dir: string,
  exclude: readonly string[],
  budget: { left: number },
): Promise<ManifestEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const directories: ManifestDirectoryEntry[] = [];
  const files: ManifestFileEntry[] = [];
  for (const name of names.sort()) {
    if (exclude.includes(name)) {
      continue;
    }
    if (budget.left <= 0) {
      budget.left = -1;
      break;
    }
    const full = path.join(dir, name);
    const entry = await describe(realRoot, full);
    if (entry === null) {
      continue;
    }
    budget.left -= 1;
    if (entry === 'directory') {
      directories.push({
        name,
        mimetype: DIRECTORY_MIMETYPE,
        encoding: null,
        children: await walk(realRoot, full, [], budget),
      });
    } else {
      files.push({ name, ...manifestTypeOf(name), last_modified: Math.floor(entry.mtimeMs / 1000), size: entry.size });
    }
  }
  return [...directories, ...files];
}

/** A real directory, a regular file inside the root (links followed), or null (left out). */
async function describe(
  realRoot: string,
  full: string,
): Promise<'directory' | { size: number; mtimeMs: number } | null> {
  try {
    const own = await lstat(full);
    if (own.isDirectory()) {
      return 'directory';
    }
    if (!own.isFile() && !own.isSymbolicLink()) {
      return null;
    }
    const real = await realpath(full);
    if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
      return null;
    }
    const target = await stat(real);
    return target.isFile() ? { size: target.size, mtimeMs: target.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** Write `zuul-manifest.json` into the build's log folder (listing everything but itself). */
export async function writeManifest(logDir: string): Promise<ManifestDocument> {
  const { tree, truncated } = await manifestTree(logDir, logDir, [MANIFEST_FILE]);
  const document: ManifestDocument = { tree, index_links: false, ...(truncated ? { truncated: true as const } : {}) };
  const file = path.join(logDir, MANIFEST_FILE);
  await writeFile(`${file}.tmp`, `${JSON.stringify(document)}\n`);
  await rename(`${file}.tmp`, file);
  return document;
}

/** The manifest artifact of a build whose logs are published at `logUrl` (ends with "/"). */
export function manifestArtifact(logUrl: string): BuildArtifact {
  return { name: MANIFEST_ARTIFACT_NAME, url: `${logUrl}${MANIFEST_FILE}`, metadata: { type: MANIFEST_ARTIFACT_TYPE } };
}

/** The job returned its own manifest artifact (then Sluice adds none). */
export function hasManifestArtifact(artifacts: readonly BuildArtifact[]): boolean {
  return artifacts.some((artifact) => artifact.metadata?.type === MANIFEST_ARTIFACT_TYPE);
}
