/**
 * Build-history read paths (docs/rest.md#badge, docs/rest.md#builds, docs/rest.md#build-times, docs/rest.md#buildsets).
 *
 * Builds get copies of their ref's project and branch and their buildset's pipeline. These never
 * change once written, and the commonest dashboard query ("newest builds of project X in
 * pipeline Y") then becomes one backward range scan of (tenant, project, id) instead of a join
 * that walks every build of the tenant. The copies are filled by `BuildRepository.start`.
 *
 * Indexes for the build-history filters that 0001 does not cover:
 * - wildcard filters (`org/*`, `gat*`) become LIKE prefixes; the database collation is not C, so
 *   plain btree indexes cannot serve them and `text_pattern_ops` twins are needed;
 * - build times are ordered by end time inside a tenant;
 * - rare boolean states (held, non-voting, non-final, running) get partial indexes so that
 *   `held=1` or `complete=false` does not walk every build of the tenant;
 * - nodeset and the badge lookup (newest complete buildset) get their own.
 */
import type { Knex } from 'knex';

export const name = '0004-history-read-paths';

const INDEXES: readonly { name: string; sql: string }[] = [
  { name: 'refs_project_pattern_idx', sql: 'ON refs (project text_pattern_ops)' },
  { name: 'refs_branch_pattern_idx', sql: 'ON refs (branch text_pattern_ops)' },
  { name: 'builds_tenant_project_idx', sql: 'ON builds (tenant, project, id)' },
  { name: 'builds_tenant_project_pattern_idx', sql: 'ON builds (tenant, project text_pattern_ops)' },
  { name: 'builds_tenant_branch_idx', sql: 'ON builds (tenant, branch, id)' },
  { name: 'builds_tenant_branch_pattern_idx', sql: 'ON builds (tenant, branch text_pattern_ops)' },
  { name: 'builds_tenant_pipeline_idx', sql: 'ON builds (tenant, pipeline, id)' },
  { name: 'builds_tenant_pipeline_pattern_idx', sql: 'ON builds (tenant, pipeline text_pattern_ops)' },
  { name: 'builds_tenant_job_pattern_idx', sql: 'ON builds (tenant, job_name text_pattern_ops)' },
  { name: 'buildsets_tenant_pipeline_pattern_idx', sql: 'ON buildsets (tenant, pipeline text_pattern_ops)' },
  { name: 'builds_tenant_nodeset_idx', sql: 'ON builds (tenant, nodeset, id)' },
  { name: 'builds_tenant_ref_idx', sql: 'ON builds (tenant, ref_id, id)' },
  { name: 'builds_tenant_end_time_idx', sql: 'ON builds (tenant, end_time, id) WHERE result IS NOT NULL' },
  { name: 'builds_tenant_held_idx', sql: 'ON builds (tenant, id) WHERE held' },
  { name: 'builds_tenant_nonvoting_idx', sql: 'ON builds (tenant, id) WHERE NOT voting' },
  { name: 'builds_tenant_nonfinal_idx', sql: 'ON builds (tenant, id) WHERE NOT final' },
  { name: 'builds_tenant_running_idx', sql: 'ON builds (tenant, id) WHERE result IS NULL' },
  { name: 'buildsets_tenant_running_idx', sql: 'ON buildsets (tenant, id) WHERE result IS NULL' },
  {
    name: 'buildsets_tenant_pipeline_complete_idx',
    sql: 'ON buildsets (tenant, pipeline, id) WHERE result IS NOT NULL',
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('builds', (t) => {
    t.text('project');
    t.text('branch');
    t.text('pipeline');
  });
  await knex.raw(
    'UPDATE builds SET project = refs.project, branch = refs.branch FROM refs WHERE refs.id = builds.ref_id',
  );
  await knex.raw(
    'UPDATE builds SET pipeline = buildsets.pipeline FROM buildsets WHERE buildsets.id = builds.buildset_id',
  );
  for (const index of INDEXES) {
    await knex.raw(`CREATE INDEX ${index.name} ${index.sql}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const index of [...INDEXES].reverse()) {
    await knex.raw(`DROP INDEX IF EXISTS ${index.name}`);
  }
  await knex.schema.alterTable('builds', (t) => {
    t.dropColumn('project');
    t.dropColumn('branch');
    t.dropColumn('pipeline');
  });
}
