/**
 * The recent runs of each job and each pipeline's items (docs/analytics.md#job-estimates), kept
 * by the history writers: a finished build appends its outcome and duration to its job's keys
 * (branch, project, tenant-wide), a finished buildset to its pipeline's item keys, each in one
 * statement that also drops what is older than the newest `SAMPLE_LIMIT` (migration 0024).
 */
import type { Knex } from 'knex';
import {
  SAMPLE_LIMIT,
  itemSampleKeys,
  jobSampleKeys,
  sampleKeyText,
  type DurationSamples,
  type SampleKey,
} from '../../model/estimates';
import { FAILED_RUN } from './run-outcomes';

const FAILED: ReadonlySet<string> = new Set<string>(FAILED_RUN);

/** A finished build as the samples need it. */
export interface FinishedBuild {
  tenant: string;
  projectCanonical: string | null;
  branch: string | null;
  jobName: string;
  result: string | null;
  final: boolean;
  startTime: Date | null;
  endTime: Date | null;
}

/** The outcome letter of a build, or null when it does not count (docs/analytics.md#job-estimates). */
export function buildOutcome(build: Pick<FinishedBuild, 'result' | 'final'>): 's' | 'f' | 'r' | null {
  if (build.result === 'SUCCESS') {
    return 's';
  }
  if (build.result === 'RETRY' && !build.final) {
    return 'r';
  }
  return build.result !== null && FAILED.has(build.result) ? 'f' : null;
}

interface SampleRow {
  level: string;
  project: string;
  branch: string;
  name: string;
  outcomes: string;
  successes: Array<number | string>;
  failures: Array<number | string>;
}

export class DurationSampleRepository {
  constructor(private readonly knex: Knex) {}

  /** Append a finished build to its job's keys (nothing for results that do not count). */
  async recordBuild(build: FinishedBuild, trx: Knex = this.knex): Promise<void> {
    const outcome = buildOutcome(build);
    if (outcome === null || build.projectCanonical === null || build.endTime === null) {
      return;
    }
    const seconds = build.startTime === null ? 0 : (build.endTime.getTime() - build.startTime.getTime()) / 1000;
    await this.append(
      trx,
      build.tenant,
      jobSampleKeys(build.projectCanonical, build.branch, build.jobName),
      outcome,
      seconds,
    );
  }

  /** Append a buildset that finished with SUCCESS or FAILURE to its pipeline's item keys. */
  async recordBuildset(
    buildset: { id: number; tenant: string; pipeline: string; result: string | null; created: Date; finished: Date },
    trx: Knex = this.knex,
  ): Promise<void> {
    if (buildset.result !== 'SUCCESS' && buildset.result !== 'FAILURE') {
      return;
    }
    const first: { project_canonical: string } | undefined = await trx('buildset_refs')
      .join('refs', 'refs.id', 'buildset_refs.ref_id')
      .where('buildset_refs.buildset_id', buildset.id)
      .orderBy('refs.id')
      .first('refs.project_canonical');
    if (!first) {
      return;
    }
    const seconds = (buildset.finished.getTime() - buildset.created.getTime()) / 1000;
    const outcome = buildset.result === 'SUCCESS' ? 's' : 'f';
    await this.append(
      trx,
      buildset.tenant,
      itemSampleKeys(buildset.pipeline, first.project_canonical),
      outcome,
      seconds,
    );
  }

  /** The samples of each key that has any, by `sampleKeyText`; one statement. */
  async read(tenant: string, keys: readonly SampleKey[]): Promise<Map<string, DurationSamples>> {
    const unique = [...new Map(keys.map((key) => [sampleKeyText(key), key])).values()];
    if (unique.length === 0) {
      return new Map();
    }
    const result = (await this.knex.raw(
      `SELECT d.level, d.project, d.branch, d.name, d.outcomes, d.successes, d.failures
       FROM jsonb_to_recordset(?::jsonb) AS k(level text, project text, branch text, name text)
       JOIN duration_samples d
         ON d.tenant = ? AND d.level = k.level AND d.project = k.project AND d.branch = k.branch AND d.name = k.name`,
      [JSON.stringify(unique), tenant],
    )) as { rows: SampleRow[] };
    return new Map(
      result.rows.map((row) => [
        sampleKeyText({
          level: row.level as SampleKey['level'],
          project: row.project,
          branch: row.branch,
          name: row.name,
        }),
        { outcomes: row.outcomes, successes: row.successes.map(Number), failures: row.failures.map(Number) },
      ]),
    );
  }

  /** One run appended to several keys in one statement; each key keeps its newest `SAMPLE_LIMIT` of each kind. */
  private async append(
    trx: Knex,
    tenant: string,
    keys: readonly SampleKey[],
    outcome: 's' | 'f' | 'r',
    seconds: number,
  ): Promise<void> {
    const counted = seconds > 0 && outcome !== 'r';
    const array = (kind: 's' | 'f'): string => (counted && outcome === kind ? 'ARRAY[?::float8]' : `'{}'::float8[]`);
    const values = keys.map(() => `(?, ?, ?, ?, ?, ?, ${array('s')}, ${array('f')})`).join(', ');
    const bindings = keys.flatMap((key) => [
      tenant,
      key.level,
      key.project,
      key.branch,
      key.name,
      outcome,
      ...(counted ? [seconds] : []),
    ]);
    const trimmed = (column: string): string =>
      `(d.${column} || EXCLUDED.${column})[greatest(cardinality(d.${column} || EXCLUDED.${column}) - ${SAMPLE_LIMIT - 1}, 1):]`;
    await trx.raw(
      `INSERT INTO duration_samples AS d (tenant, level, project, branch, name, outcomes, successes, failures)
       VALUES ${values}
       ON CONFLICT (tenant, level, project, branch, name) DO UPDATE SET
         outcomes = right(d.outcomes || EXCLUDED.outcomes, ${SAMPLE_LIMIT}),
         successes = ${trimmed('successes')},
         failures = ${trimmed('failures')}`,
      bindings,
    );
  }
}
