/**
 * The configuration an item's speculative merge proposes (docs/gating.md#speculative-layouts): for
 * every project-branch whose configuration a merged change (the item's own, or one ahead of it)
 * touched, the configuration files of that branch as merged. The merge work reads them from the
 * merged state and returns them with the repository state, so the pass builds the item's layout
 * without reading git itself.
 */
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
