/**
 * The recent runs of each job and each pipeline's items (docs/analytics.md#job-estimates), kept
 * by the history writers: a finished build appends its outcome and duration to its job's keys
 * (branch, project, tenant-wide), a finished buildset to its pipeline's item keys, in one
 * statement that also drops what is older than the newest `SAMPLE_LIMIT` (migration 0024). A
 * scheduler pass collects its runs in a `SampleBatch` and writes them all in one statement before
 * its commit (docs/gating.md#performance).
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
import { prepared } from '../prepared-statements';
import { writeTogether, type QueuedWrite } from '../writes-together';

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

/** One run to append to its keys. */
export interface SampleAppend {
  tenant: string;
  keys: readonly SampleKey[];
  outcome: 's' | 'f' | 'r';
  seconds: number;
}

/** The runs of one key, oldest first, as one row to append. */
interface KeyAppend {
  tenant: string;
  key: SampleKey;
  outcomes: string;
  successes: number[];
  failures: number[];
}

/**
 * Runs collected (in a scheduler pass) and appended together by `flush`, or by the write `take`
 * returns: one statement for all, whatever their keys, so a pass's finished builds and buildsets
 * cost one statement, which the pass sends with its other writes (docs/gating.md#performance).
 */
export class SampleBatch {
  private appends: SampleAppend[] = [];
  private readonly handedOut: SampleAppend[] = [];
  private collected = false;

  add(append: SampleAppend): void {
    this.appends.push(append);
    this.collected = true;
  }

  /** Whether any run was collected, written since or not: the samples may have changed. */
  get recorded(): boolean {
    return this.collected;
  }

  /** Append what was collected, in one statement (none when nothing was). */
  async flush(knex: Knex): Promise<void> {
    await writeTogether(knex, [this.take()]);
  }

  /** What was collected, as one write to send with others (`writeTogether`; null when nothing was). */
  take(): QueuedWrite | null {
    const appends = this.appends;
    this.appends = [];
    this.handedOut.push(...appends);
    return samplesWrite(appends);
  }

  /** Every run `take` handed out, in order: what the batch's writes append (`withRunsAppended`). */
  taken(): readonly SampleAppend[] {
    return this.handedOut;
  }
}

/**
 * `samples` (one tenant's, by `sampleKeyText`) as they are once `runs` are written (`samplesWrite`:
 * each kind of each key cut to its newest `SAMPLE_LIMIT`), for the keys in `keys` only (a key of
 * `keys` that `samples` lacks had no row). A scheduler keeps the samples its status deltas need
 * this way instead of reading them again after each pass that wrote some (docs/gating.md#performance).
 */
export function withRunsAppended(
  samples: ReadonlyMap<string, DurationSamples>,
  keys: ReadonlySet<string>,
  runs: readonly SampleAppend[],
): Map<string, DurationSamples> {
  const updated = new Map(samples);
  for (const row of byKey(runs)) {
    const text = sampleKeyText(row.key);
    if (!keys.has(text)) {
      continue;
    }
    const kept = updated.get(text);
    updated.set(
      text,
      kept === undefined
        ? { outcomes: row.outcomes, successes: row.successes, failures: row.failures }
        : {
            outcomes: (kept.outcomes + row.outcomes).slice(-SAMPLE_LIMIT),
            successes: [...kept.successes, ...row.successes].slice(-SAMPLE_LIMIT),
            failures: [...kept.failures, ...row.failures].slice(-SAMPLE_LIMIT),
          },
    );
  }
  return updated;
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

  /**
   * Append a finished build to its job's keys (nothing for results that do not count); with a
   * batch, collected there for its flush instead.
   */
  async recordBuild(build: FinishedBuild, trx: Knex = this.knex, batch?: SampleBatch): Promise<void> {
    const outcome = buildOutcome(build);
    if (outcome === null || build.projectCanonical === null || build.endTime === null) {
      return;
    }
    const seconds = build.startTime === null ? 0 : (build.endTime.getTime() - build.startTime.getTime()) / 1000;
    const keys = jobSampleKeys(build.projectCanonical, build.branch, build.jobName);
    await this.record(trx, { tenant: build.tenant, keys, outcome, seconds }, batch);
  }

  /**
   * Append a buildset that finished with SUCCESS or FAILURE to its pipeline's item keys, under the
   * project of its first ref (null: none, nothing recorded); with a batch, collected there.
   */
  async recordBuildset(
    buildset: { tenant: string; pipeline: string; result: string | null; created: Date; finished: Date },
    firstProject: string | null,
    trx: Knex = this.knex,
    batch?: SampleBatch,
  ): Promise<void> {
    if ((buildset.result !== 'SUCCESS' && buildset.result !== 'FAILURE') || firstProject === null) {
      return;
    }
    const seconds = (buildset.finished.getTime() - buildset.created.getTime()) / 1000;
    const outcome = buildset.result === 'SUCCESS' ? 's' : 'f';
    const keys = itemSampleKeys(buildset.pipeline, firstProject);
    await this.record(trx, { tenant: buildset.tenant, keys, outcome, seconds }, batch);
  }

  /** The samples of each key that has any, by `sampleKeyText`; one statement. */
  async read(tenant: string, keys: readonly SampleKey[]): Promise<Map<string, DurationSamples>> {
    const unique = [...new Map(keys.map((key) => [sampleKeyText(key), key])).values()];
    if (unique.length === 0) {
      return new Map();
    }
    const result = (await prepared(
      this.knex.raw(
        `SELECT d.level, d.project, d.branch, d.name, d.outcomes, d.successes, d.failures
       FROM jsonb_to_recordset(?::jsonb) AS k(level text, project text, branch text, name text)
       JOIN duration_samples d
         ON d.tenant = ? AND d.level = k.level AND d.project = k.project AND d.branch = k.branch AND d.name = k.name`,
        [JSON.stringify(unique), tenant],
      ),
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

  private async record(trx: Knex, append: SampleAppend, batch: SampleBatch | undefined): Promise<void> {
    if (batch) {
      batch.add(append);
    } else {
      await writeTogether(trx, [samplesWrite([append])]);
    }
  }
}

/** The runs of `appends` by key, in order, each kind cut to its newest `SAMPLE_LIMIT`. */
function byKey(appends: readonly SampleAppend[]): KeyAppend[] {
  const rows = new Map<string, KeyAppend>();
  for (const { tenant, keys, outcome, seconds } of appends) {
    // A retried run keeps no duration; a run of no measurable time counts in the outcomes only.
    const counted = seconds > 0 && outcome !== 'r';
    for (const key of keys) {
      const text = `${tenant}\u0000${sampleKeyText(key)}`;
      let row = rows.get(text);
      if (!row) {
        row = { tenant, key, outcomes: '', successes: [], failures: [] };
        rows.set(text, row);
      }
      row.outcomes += outcome;
      if (counted) {
        (outcome === 's' ? row.successes : row.failures).push(seconds);
      }
    }
  }
  return [...rows.values()].map((row) => ({
    ...row,
    outcomes: row.outcomes.slice(-SAMPLE_LIMIT),
    successes: row.successes.slice(-SAMPLE_LIMIT),
    failures: row.failures.slice(-SAMPLE_LIMIT),
  }));
}

/**
 * Runs appended to their keys in one statement (one row per key: a statement may not update a row
 * twice); each key keeps its newest `SAMPLE_LIMIT` of each kind.
 */
function samplesWrite(appends: readonly SampleAppend[]): QueuedWrite | null {
  const rows = byKey(appends);
  if (rows.length === 0) {
    return null;
  }
  const array = (values: number[]): string =>
    values.length === 0 ? `'{}'::float8[]` : `ARRAY[${values.map(() => '?::float8').join(', ')}]`;
  const values = rows.map((row) => `(?, ?, ?, ?, ?, ?, ${array(row.successes)}, ${array(row.failures)})`).join(', ');
  const bindings = rows.flatMap((row) => [
    row.tenant,
    row.key.level,
    row.key.project,
    row.key.branch,
    row.key.name,
    row.outcomes,
    ...row.successes,
    ...row.failures,
  ]);
  const trimmed = (column: string): string =>
    `(d.${column} || EXCLUDED.${column})[greatest(cardinality(d.${column} || EXCLUDED.${column}) - ${SAMPLE_LIMIT - 1}, 1):]`;
  return {
    sql: `INSERT INTO duration_samples AS d (tenant, level, project, branch, name, outcomes, successes, failures)
     VALUES ${values}
     ON CONFLICT (tenant, level, project, branch, name) DO UPDATE SET
       outcomes = right(d.outcomes || EXCLUDED.outcomes, ${SAMPLE_LIMIT}),
       successes = ${trimmed('successes')},
       failures = ${trimmed('failures')}`,
    bindings,
  };
}
