/**
 * The configuration an item's speculative merge proposes (docs/gating.md#speculative-layouts): for
 * every project-branch whose configuration a merged change (the item's own, or one ahead of it)
 * touched, the configuration files of that branch as merged. The merge work reads them from the
 * merged state and returns them with the repository state, so the pass builds the item's layout
 * without reading git itself.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Where a project's configuration is read, as the merge work needs it. */
export interface ConfigLocation {
  /** The project's `extra-config-paths` (a trailing `/` marks a directory). */
  extraConfigPaths: string[];
  /** Branches of `always-dynamic-branches`: every change to them counts as a configuration change. */
  dynamicBranches: string[];
}

/** Per canonical project name, where its configuration is read (projects whose configuration is not read are absent). */
export type ConfigLocations = Record<string, ConfigLocation>;

export const configLocationsSchema = z.record(
  z.string(),
  z.object({ extraConfigPaths: z.array(z.string()), dynamicBranches: z.array(z.string()) }),
);

export const proposedConfigSchema = z.object({
  /** Canonical project name. */
  project: z.string(),
  branch: z.string(),
  files: z.array(z.object({ path: z.string(), text: z.string() })),
  /** Default locations present but ignored because an earlier one exists. */
  ignoredLocations: z.array(z.string()),
});
export type ProposedConfig = z.infer<typeof proposedConfigSchema>;

/**
 * Whether a changed file is one the configuration is read from (docs/project-configuration.md#how-configuration-is-loaded:
 * the default locations and the extra paths).
 */
export function isConfigPath(file: string, extraConfigPaths: readonly string[]): boolean {
  if (file === 'zuul.yaml' || file === '.zuul.yaml' || file.startsWith('zuul.d/') || file.startsWith('.zuul.d/')) {
    return true;
  }
  return extraConfigPaths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
}

/**
 * A proposed project-branch as the items behind it remember it: the configuration as merged up to
 * an item is kept by digest only, and an item behind it finds the same content in its own proposal
 * (docs/gating.md#speculative-layouts).
 */
export const configDigestSchema = z.object({ project: z.string(), branch: z.string(), digest: z.string() });
export type ConfigDigest = z.infer<typeof configDigestSchema>;

export function configDigestOf(entry: ProposedConfig): ConfigDigest {
  const digest = createHash('sha256')
    .update(JSON.stringify([entry.files, entry.ignoredLocations]))
    .digest('hex');
  return { project: entry.project, branch: entry.branch, digest };
}

/**
 * What the item ahead proposed, read back from the item's own proposal: the entries whose content
 * the item ahead had too. A project-branch the item itself changed again is left out (the live
 * configuration stands for it), so its jobs compare with the live layout's.
 */
export function proposalAhead(proposed: readonly ProposedConfig[], ahead: readonly ConfigDigest[]): ProposedConfig[] {
  const known = new Set(ahead.map((entry) => `${entry.project}\0${entry.branch}\0${entry.digest}`));
  return proposed.filter((entry) => {
    const digest = configDigestOf(entry);
    return known.has(`${digest.project}\0${digest.branch}\0${digest.digest}`);
  });
}
