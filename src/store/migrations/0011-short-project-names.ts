/**
 * Short project names in build history (docs/gating.md#project-names-in-history).
 *
 * The history kept the canonical project name (`host/org/project`) in `refs.project` and its
 * copy `builds.project`; the reference keeps the project's name (`org/project`), which is what
 * clients filter on and show. Both are kept now: the canonical name moves to `project_canonical`
 * (the unique key of refs stays on it) and `project` holds the short name.
 *
 * Existing rows get the short name by the rule canonical names are made with,
 * `<canonical hostname>/<name>`: everything after the first `/`. The service configuration
 * (which holds the host names) is not in the database, so a host name containing `/` would be
 * split wrongly here; every process corrects the rows of configured projects from the loaded
 * tenant configuration when it starts (`reconcileProjectNames` in
 * src/store/repositories/project-names.ts).
 */
import type { Knex } from 'knex';

export const name = '0011-short-project-names';

const RENAMED_INDEXES: ReadonlyArray<[string, string]> = [
  ['refs_project_idx', 'refs_project_canonical_idx'],
  ['refs_project_pattern_idx', 'refs_project_canonical_pattern_idx'],
  ['builds_tenant_project_idx', 'builds_tenant_project_canonical_idx'],
  ['builds_tenant_project_pattern_idx', 'builds_tenant_project_canonical_pattern_idx'],
];

const NEW_INDEXES: ReadonlyArray<{ name: string; sql: string }> = [
  { name: 'refs_project_idx', sql: 'ON refs (project)' },
  { name: 'refs_project_pattern_idx', sql: 'ON refs (project text_pattern_ops)' },
  { name: 'builds_tenant_project_idx', sql: 'ON builds (tenant, project, id)' },
  { name: 'builds_tenant_project_pattern_idx', sql: 'ON builds (tenant, project text_pattern_ops)' },
];

/** SQL for the short name of a canonical name: what follows its first `/` (all of it when none). */
const SHORT_NAME = (column: string) =>
  `CASE WHEN strpos(${column}, '/') > 0 THEN substr(${column}, strpos(${column}, '/') + 1) ELSE ${column} END`;

export async function up(knex: Knex): Promise<void> {
  for (const table of ['refs', 'builds']) {
    await knex.raw('ALTER TABLE ?? RENAME COLUMN project TO project_canonical', [table]);
  }
  for (const [from, to] of RENAMED_INDEXES) {
    await knex.raw(`ALTER INDEX ${from} RENAME TO ${to}`);
  }
  await knex.raw('ALTER TABLE refs ADD COLUMN project text');
  await knex.raw(`UPDATE refs SET project = ${SHORT_NAME('project_canonical')}`);
  await knex.raw('ALTER TABLE refs ALTER COLUMN project SET NOT NULL');
  // Builds without a ref keep a null project, as before.
  await knex.raw('ALTER TABLE builds ADD COLUMN project text');
  await knex.raw(`UPDATE builds SET project = ${SHORT_NAME('project_canonical')} WHERE project_canonical IS NOT NULL`);
  for (const index of NEW_INDEXES) {
    await knex.raw(`CREATE INDEX ${index.name} ${index.sql}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const index of [...NEW_INDEXES].reverse()) {
    await knex.raw(`DROP INDEX IF EXISTS ${index.name}`);
  }
  for (const table of ['refs', 'builds']) {
    await knex.raw('ALTER TABLE ?? DROP COLUMN project', [table]);
  }
  for (const [from, to] of [...RENAMED_INDEXES].reverse()) {
    await knex.raw(`ALTER INDEX ${to} RENAME TO ${from}`);
  }
  for (const table of ['refs', 'builds']) {
    await knex.raw('ALTER TABLE ?? RENAME COLUMN project_canonical TO project', [table]);
  }
}
