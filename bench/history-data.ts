/**
 * Synthetic build history for benchmarks: fills a PostgreSQL store with N builds in set-based
 * `INSERT ... SELECT generate_series` statements (minutes, not hours, for 1,000,000 builds).
 * Reusable by any benchmark (GraphQL, REST): `fillBuildHistory(knex, { tenant, builds })`.
 *
 * Writes the same columns as the store's repositories (including the project, branch and
 * pipeline copies on builds of migration 0004); keep the two in step.
 *
 * Shape of the data: every buildset has `buildsPerBuildset` builds and one change ref; projects,
 * pipelines, jobs, nodesets and results rotate so filters select realistic fractions; every
 * fifth build has an artifact; the newest buildsets are still running.
 */
import type { Knex } from 'knex';

export interface HistoryDataOptions {
  tenant: string;
  builds: number;
  buildsPerBuildset?: number;
  projects?: number;
  jobs?: number;
  /** Rows per INSERT statement (progress granularity). */
  chunk?: number;
  /** Called after each chunk with the number of builds written so far. */
  progress?: (written: number) => void;
}

export const BENCH_PIPELINES = ['check', 'gate', 'post'] as const;

/** How many builds of `tenant` the store holds. */
export async function countTenantBuilds(knex: Knex, tenant: string): Promise<number> {
  const [row] = await knex('builds').where({ tenant }).count({ count: '*' });
  return Number(row?.count ?? 0);
}

/** Writes `options.builds` builds (with buildsets, refs and artifacts) for `options.tenant`. */
export async function fillBuildHistory(knex: Knex, options: HistoryDataOptions): Promise<void> {
  const perSet = options.buildsPerBuildset ?? 5;
  const projects = options.projects ?? 50;
  const jobs = options.jobs ?? 20;
  const chunk = options.chunk ?? 200_000;
  const buildsetCount = Math.ceil(options.builds / perSet);
  const [{ base }] = (await knex.raw('SELECT COALESCE(MAX(change), 0) AS base FROM refs')).rows as { base: number }[];
  const start = Date.now() - options.builds * 30_000;
  const params = { tenant: options.tenant, base, start: new Date(start), projects, jobs, perSet };

  // Buildsets and refs, in chunks of buildsets.
  const setChunk = Math.max(1, Math.floor(chunk / perSet));
  for (let from = 1; from <= buildsetCount; from += setChunk) {
    const to = Math.min(buildsetCount, from + setChunk - 1);
    const bounds = { ...params, from, to, running: buildsetCount - 20 };
    await knex.raw(
      `INSERT INTO refs (project, project_canonical, ref, ref_url, change, patchset, branch)
       SELECT 'org/project-' || (g % :projects), 'review.example.com/org/project-' || (g % :projects), 'refs/changes/' || lpad(((:base + g) % 100)::text, 2, '0') || '/' || (:base + g) || '/1',
              'https://review.example.com/' || (:base + g), :base + g, '1',
              CASE WHEN g % 10 = 0 THEN 'stable' ELSE 'master' END
       FROM generate_series(:from::bigint, :to::bigint) AS g`,
      bounds,
    );
    await knex.raw(
      `INSERT INTO buildsets (uuid, tenant, pipeline, result, message, event_id, event_timestamp,
                              first_build_start_time, last_build_end_time, created, updated)
       SELECT md5(:tenant || ':bs:' || g), :tenant, (ARRAY['check', 'gate', 'post'])[1 + g % 3],
              CASE WHEN g > :running THEN NULL WHEN g % 10 = 3 THEN 'FAILURE' ELSE 'SUCCESS' END,
              CASE WHEN g > :running THEN NULL ELSE 'Build report ' || g END,
              md5(:tenant || ':ev:' || g), :start::timestamptz + make_interval(secs => g * 30 * :perSet),
              :start::timestamptz + make_interval(secs => g * 30 * :perSet + 5),
              CASE WHEN g > :running THEN NULL ELSE :start::timestamptz + make_interval(secs => g * 30 * :perSet + 900) END,
              :start::timestamptz + make_interval(secs => g * 30 * :perSet),
              :start::timestamptz + make_interval(secs => g * 30 * :perSet + 900)
       FROM generate_series(:from::bigint, :to::bigint) AS g
       ORDER BY g`,
      bounds,
    );
    await knex.raw(
      `INSERT INTO buildset_refs (buildset_id, ref_id)
       SELECT bs.id, r.id
       FROM generate_series(:from::bigint, :to::bigint) AS g
       JOIN buildsets bs ON bs.uuid = md5(:tenant || ':bs:' || g)
       JOIN refs r ON r.ref = 'refs/changes/' || lpad(((:base + g) % 100)::text, 2, '0') || '/' || (:base + g) || '/1'
                  AND r.project = 'org/project-' || (g % :projects)`,
      bounds,
    );
  }

  // Builds, in chunks; a build's buildset is ((h - 1) / perSet) + 1.
  for (let from = 1; from <= options.builds; from += chunk) {
    const to = Math.min(options.builds, from + chunk - 1);
    const bounds = { ...params, from, to, running: options.builds - 20 * perSet };
    await knex.raw(
      `INSERT INTO builds (buildset_id, tenant, uuid, job_name, result, start_time, end_time, voting, log_url,
                           error_detail, final, held, nodeset, ref_id, attempt, project, project_canonical, branch,
                           pipeline)
       SELECT bs.id, :tenant, md5(:tenant || ':b:' || h), 'job-' || (h % :jobs),
              CASE WHEN h > :running THEN NULL WHEN h % 50 = 7 THEN 'SKIPPED' WHEN h % 10 = 3 THEN 'FAILURE'
                   WHEN h % 97 = 5 THEN 'RETRY' ELSE 'SUCCESS' END,
              :start::timestamptz + make_interval(secs => h * 30),
              CASE WHEN h > :running THEN NULL ELSE :start::timestamptz + make_interval(secs => h * 30 + 60 + h % 600) END,
              h % 17 <> 0, 'https://logs.example.com/' || h || '/',
              CASE WHEN h % 50 = 7 THEN 'Skipped due to failed job job-0' END,
              h <= :running AND h % 97 <> 5, h % 997 = 0, 'nodeset-' || (h % 4), br.ref_id, 1,
              r.project, r.project_canonical, r.branch, bs.pipeline
       FROM generate_series(:from::bigint, :to::bigint) AS h
       JOIN buildsets bs ON bs.uuid = md5(:tenant || ':bs:' || ((h - 1) / :perSet + 1))
       JOIN buildset_refs br ON br.buildset_id = bs.id
       JOIN refs r ON r.id = br.ref_id
       ORDER BY h`,
      bounds,
    );
    // Fresh statistics first: with the tenant's builds unknown to the planner, the artifact
    // insert below becomes a nested loop over every build times every generated uuid.
    await knex.raw('ANALYZE builds');
    await knex.raw(
      `INSERT INTO artifacts (build_id, name, url, metadata)
       SELECT b.id, 'docs', b.log_url || 'docs/', CASE WHEN b.id % 2 = 0 THEN '{"type": "docs"}'::jsonb END
       FROM builds b
       WHERE b.tenant = :tenant AND b.uuid IN (SELECT md5(:tenant || ':b:' || h) FROM generate_series(:from::bigint, :to::bigint) AS h WHERE h % 5 = 0)`,
      bounds,
    );
    options.progress?.(to);
  }
  await knex.raw('ANALYZE refs, buildsets, buildset_refs, builds, artifacts');
}
