/**
 * Resolving `--tenant T --project P` to the project's canonical name (the owner of its keys)
 * straight from the tenant file, for `sluice encrypt`. It reads only the `source` lists; the
 * layout manager offers the same answer once configuration loading is wired in.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { canonicalHostnameOf, type ServiceConfig } from '../config/service';

/** Maps a tenant and a project name (short or canonical) to the canonical name, or undefined. */
export type ProjectResolver = (tenant: string, project: string) => Promise<string | undefined>;

/** A resolver over the service configuration's tenant file. */
export function tenantFileProjectResolver(config: ServiceConfig): ProjectResolver {
  return async (tenant, project) => {
    if (config.tenantConfig === undefined) {
      return undefined;
    }
    const doc: unknown = parse(await readFile(config.tenantConfig, 'utf8'));
    const entry = (Array.isArray(doc) ? doc : [])
      .map((item: unknown) => (item as { tenant?: { name?: unknown; source?: unknown } } | null)?.tenant)
      .find((t) => t?.name === tenant);
    if (entry === undefined || typeof entry.source !== 'object' || entry.source === null) {
      return undefined;
    }
    for (const [connection, spec] of Object.entries(entry.source as Record<string, unknown>)) {
      const hostname = canonicalHostnameOf(connection, config.connections[connection]);
      const lists = spec as { 'config-projects'?: unknown; 'untrusted-projects'?: unknown } | null;
      for (const name of [
        ...projectNames(lists?.['config-projects']),
        ...projectNames(lists?.['untrusted-projects']),
      ]) {
        const canonical = `${hostname}/${name}`;
        if (project === name || project === canonical) {
          return canonical;
        }
      }
    }
    return undefined;
  };
}

/** Names in a project list: strings, `{name: {options}}` maps and `{projects: [...]}` groups. */
function projectNames(list: unknown): string[] {
  if (!Array.isArray(list)) {
    return [];
  }
  return list.flatMap((item: unknown): string[] => {
    if (typeof item === 'string') {
      return [item];
    }
    if (typeof item !== 'object' || item === null) {
      return [];
    }
    const map = item as Record<string, unknown>;
    if ('projects' in map) {
      return projectNames(map.projects);
    }
    const keys = Object.keys(map);
    return keys.length === 1 ? keys : [];
  });
}
