/**
 * One index per filtered text column of the build history instead of two (docs/rest.md#history-pages-on-a-shared-store).
 * A build's branch, pipeline and job name, a buildset's pipeline and a ref's project (short and
 * canonical) and branch each had a plain index for equality (with the id, for newest-first
 * pages) and a `text_pattern_ops` twin for wildcard prefixes (0004). A `text_pattern_ops` index
 * serves both: its operator family holds `=`, and with the tenant and the column constrained its
 * id order is the page order. Every build is written twice (started, completed, a new row version
 * each time, so every index of the table gets an entry each time): 26 indexes made the build
 * history the largest part of a scheduler pass's writes (docs/gating.md#performance). The tables
 * now have 23 (builds), 8 (buildsets) and 10 (refs).
 *
 * A build's project keeps both of its pairs (short and canonical name): its filter matches either
 * column (an OR), and with the tenant bounded as a range (the page rule of
 * src/store/repositories/history-query.ts) PostgreSQL chose a sequential scan over a bitmap of the
 * two `text_pattern_ops` indexes for a value no build has, on a store of 21,000 builds
 * (test/integration/store/tenant-scoped-plans.test.ts).
 */
import type { Knex } from 'knex';

export const name = '0038-history-pattern-indexes';

/** Each pair: the plain index kept by name (now on the pattern operator class), its pattern twin dropped. */
const PAIRS: ReadonlyArray<{ table: string; plain: string; pattern: string; columns: string }> = [
  {
    table: 'builds',
    plain: 'builds_tenant_branch_idx',
    pattern: 'builds_tenant_branch_pattern_idx',
    columns: 'tenant, branch',
  },
  {
    table: 'builds',
    plain: 'builds_tenant_pipeline_idx',
    pattern: 'builds_tenant_pipeline_pattern_idx',
    columns: 'tenant, pipeline',
  },
  {
    table: 'builds',
    plain: 'builds_tenant_job_idx',
    pattern: 'builds_tenant_job_pattern_idx',
    columns: 'tenant, job_name',
  },
  {
    table: 'buildsets',
    plain: 'buildsets_tenant_pipeline_idx',
    pattern: 'buildsets_tenant_pipeline_pattern_idx',
    columns: 'tenant, pipeline',
  },
  { table: 'refs', plain: 'refs_project_idx', pattern: 'refs_project_pattern_idx', columns: 'project' },
  {
    table: 'refs',
    plain: 'refs_project_canonical_idx',
    pattern: 'refs_project_canonical_pattern_idx',
    columns: 'project_canonical',
  },
  { table: 'refs', plain: 'refs_branch_idx', pattern: 'refs_branch_pattern_idx', columns: 'branch' },
];

/** `a, b` -> `a, b text_pattern_ops`: the last column is the filtered text. */
function patternColumns(columns: string): string {
  return `${columns} text_pattern_ops`;
}

export async function up(knex: Knex): Promise<void> {
  for (const pair of PAIRS) {
    const id = pair.table === 'refs' ? '' : ', id';
    await knex.raw(`DROP INDEX IF EXISTS ${pair.plain}`);
    await knex.raw(`DROP INDEX IF EXISTS ${pair.pattern}`);
    await knex.raw(`CREATE INDEX ${pair.plain} ON ${pair.table} (${patternColumns(pair.columns)}${id})`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const pair of [...PAIRS].reverse()) {
    const id = pair.table === 'refs' ? '' : ', id';
    await knex.raw(`DROP INDEX IF EXISTS ${pair.plain}`);
    await knex.raw(`CREATE INDEX ${pair.plain} ON ${pair.table} (${pair.columns}${id})`);
    await knex.raw(`CREATE INDEX ${pair.pattern} ON ${pair.table} (${patternColumns(pair.columns)})`);
  }
}
