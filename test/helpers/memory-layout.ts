/** Builds a layout from in-memory files (no git), for small focused configuration tests. */
import { buildLayoutSync, type BuildLayoutInput, type LoadedProject } from '../../src/config/layout-builder';
import type { Layout } from '../../src/config/layout';
import { parseTenantFile } from '../../src/config/tenant-file';
import type { SecretKeys } from '../../src/config/secret-check';

export interface MemoryProject {
  name: string;
  trusted?: boolean;
  /** Tenant-file options of the project, as a YAML flow mapping (e.g. `{shadow: config}`). */
  options?: string;
  /** branch -> file path -> text; the first branch is the default branch. */
  branches: Record<string, Record<string, string>>;
}

/**
 * A tenant named `t` on connection `gerrit` (host review.example.com) with the given projects.
 * With `secretKeys` (canonical name -> private key) encrypted secrets are decrypted at load;
 * `connections` (name -> driver) are configured besides `gerrit` for triggers and reporters.
 */
export function memoryLayout(
  projects: MemoryProject[],
  tenantOptions = '',
  secretKeys?: SecretKeys,
  connections: Record<string, string> = {},
): Layout {
  return buildLayoutSync(memoryLayoutInput(projects, tenantOptions, secretKeys, connections));
}

/** The input `memoryLayout` builds from, for tests of the (sliced) builder itself. */
export function memoryLayoutInput(
  projects: MemoryProject[],
  tenantOptions = '',
  secretKeys?: SecretKeys,
  connections: Record<string, string> = {},
): BuildLayoutInput {
  const entry = (p: MemoryProject) =>
    p.options === undefined ? `          - ${p.name}` : `          - ${p.name}: ${p.options}`;
  const config = projects.filter((p) => p.trusted).map(entry);
  const untrusted = projects.filter((p) => !p.trusted).map(entry);
  const text = `- tenant:\n    name: t\n${tenantOptions}    source:\n      gerrit:\n        config-projects:\n${config.join('\n')}\n        untrusted-projects:\n${untrusted.join('\n')}\n`;
  const { abide, problems } = parseTenantFile(text, { gerrit: { driver: 'git' } });
  if (problems.length > 0) {
    throw new Error(problems.map((p) => p.message).join('; '));
  }
  const tenant = abide.tenants[0];
  const loaded: LoadedProject[] = tenant.projects.map((tpc) => {
    const spec = projects.find((p) => p.name === tpc.name);
    if (spec === undefined) {
      throw new Error(`no project ${tpc.name}`);
    }
    const branches = tpc.trusted ? [Object.keys(spec.branches)[0]] : Object.keys(spec.branches);
    return {
      tpc,
      name: spec.name,
      canonicalName: `review.example.com/${spec.name}`,
      connectionName: 'gerrit',
      trusted: tpc.trusted,
      defaultBranch: Object.keys(spec.branches)[0],
      branches,
      branchShas: Object.fromEntries(branches.map((b) => [b, `${b}-sha`])),
      files: new Map(
        branches.map((b) => [b, Object.entries(spec.branches[b]).map(([path, text]) => ({ path, text }))]),
      ),
      ignoredLocations: new Map(),
    };
  });
  return {
    uuid: 'memory',
    now: new Date(0),
    tenant,
    abide,
    connections: { gerrit: 'git', ...connections },
    projects: loaded,
    initialErrors: [],
    secretKeys,
  };
}
