/**
 * The short project names of build history, corrected from the tenant configuration
 * (docs/gating.md#project-names-in-history). Migration 0011 derived them from the canonical
 * names without knowing the connections' host names; the loaded configuration knows each
 * project's name, so every process puts the rows of configured projects right when it starts.
 */
import type { Knex } from 'knex';

/** A configured project: its name and canonical name. */
export interface ProjectNames {
  name: string;
  canonicalName: string;
}

/**
 * Sets the short name of every ref and build of these projects whose stored name differs; returns
 * how many rows changed (none once the names are right, so later starts only read the indexes).
 */
export async function reconcileProjectNames(knex: Knex, projects: readonly ProjectNames[]): Promise<number> {
  const unique = [...new Map(projects.map((project) => [project.canonicalName, project])).values()];
  if (unique.length === 0) {
    return 0;
  }
  const pairs = JSON.stringify(unique.map((project) => ({ canonical: project.canonicalName, name: project.name })));
  let changed = 0;
  for (const table of ['refs', 'builds']) {
    const result = (await knex.raw(
      `UPDATE ?? AS t SET project = v.name
       FROM jsonb_to_recordset(?::jsonb) AS v(canonical text, name text)
       WHERE t.project_canonical = v.canonical AND t.project IS DISTINCT FROM v.name`,
      [table, pairs],
    )) as { rowCount?: number | null; affectedRows?: number };
    changed += Number(result.rowCount ?? result.affectedRows ?? 0);
  }
  return changed;
}
