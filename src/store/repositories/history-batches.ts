/**
 * The build-history writes of a scheduler pass in multi-row form (docs/gating.md#performance):
 * the buildsets it created with their refs, the builds it started, the builds it completed and the
 * buildsets it finished, all in one statement at the pass's end (./history-statement.ts) instead
 * of one statement per row. Build and buildset ids are taken from their sequences ahead
 * (`reserveHistoryIds`), so a row has its id before it is written. Each kind does what the
 * single-row writes of builds.ts and buildsets.ts do (a single buildset is written with
 * `createBuildsets` too); the functions of one kind below send that statement with that kind only.
 */
import type { Knex } from 'knex';
import type { QueuedWrite } from '../writes-together';
import type { BuildResult, BuildsetResult } from '../../model/results';
import type { BuildsetRecord, NewBuildset } from './buildsets';
import type { FinishedBuild } from './duration-samples';
import { writeHistory } from './history-statement';

export interface BatchedBuildStart {
  id: number;
  buildsetId: number;
  uuid: string;
  jobName: string;
  startTime: Date;
  voting: boolean;
  nodeset: string | null;
  refId: number | null;
  attempt: number;
}

/** What a build's end writes (the history port's `completeBuild` input). */
export interface BuildCompletion {
  result: BuildResult;
  endTime: Date;
  errorDetail: string | null;
  logUrl: string | null;
  final: boolean;
  held: boolean;
  artifacts: Array<{ name: string; url: string; metadata: Record<string, unknown> | null }>;
  provides: string[];
  /** The data the build returned (docs/gating.md#build-history); empty when none. */
  resultData: Record<string, unknown>;
}

export interface BatchedBuildCompletion extends BuildCompletion {
  id: number;
}

export interface BatchedBuildsetFinish {
  id: number;
  result: BuildsetResult;
  message: string | null;
  at: Date;
}

/** A buildset to create with a given id (taken ahead with `reserveHistoryIds`). */
export interface BatchedBuildsetCreation extends NewBuildset {
  id: number;
}

/** Fresh ids from the sequences of `builds` and `buildsets`, as many as asked of each (one statement). */
export async function reserveHistoryIds(
  knex: Knex,
  count: { builds: number; buildsets: number },
): Promise<{ builds: number[]; buildsets: number[] }> {
  const query = historyIdsQuery(count);
  const result = (await knex.raw(query.sql, query.bindings)) as { rows: HistoryIdRow[] };
  return readHistoryIds(result.rows);
}

/** A row of `historyIdsQuery`. */
export interface HistoryIdRow {
  build: string | number | null;
  buildset: string | number | null;
}

/** The query of `reserveHistoryIds`, to send after other writes (`writeTogether`); `readHistoryIds` reads its rows. */
export function historyIdsQuery(count: { builds: number; buildsets: number }): QueuedWrite {
  return {
    sql: `SELECT CASE WHEN n <= ? THEN nextval(pg_get_serial_sequence('builds', 'id')) END AS build,
       CASE WHEN n <= ? THEN nextval(pg_get_serial_sequence('buildsets', 'id')) END AS buildset
     FROM generate_series(1, GREATEST(?::int, ?::int)) AS n`,
    bindings: [count.builds, count.buildsets, count.builds, count.buildsets],
  };
}

/** The ids of each kind in `historyIdsQuery`'s rows, ascending. */
export function readHistoryIds(rows: readonly HistoryIdRow[]): { builds: number[]; buildsets: number[] } {
  const ids = (column: 'build' | 'buildset') =>
    rows
      .filter((row) => row[column] !== null)
      .map((row) => Number(row[column]))
      .sort((a, b) => a - b);
  return { builds: ids('build'), buildsets: ids('buildset') };
}

/**
 * Insert started builds (as `BuildRepository.start` does, one row each, in the given order) and
 * set each buildset's first build start time, from its first build in the given order, when unset.
 */
export async function insertStartedBuilds(trx: Knex, starts: readonly BatchedBuildStart[]): Promise<void> {
  await writeHistory(trx, { starts });
}

/**
 * Complete builds (as `BuildRepository.complete` does: result, end time, flaky flag, result data
 * cleared or replaced, artifacts and provides); each build at most once per call. Returns what the
 * duration samples need of each, in the given order.
 */
export async function completeBuilds(
  trx: Knex,
  completions: readonly BatchedBuildCompletion[],
): Promise<FinishedBuild[]> {
  return (await writeHistory(trx, { completions })).completed;
}

/**
 * Finish buildsets (as `BuildsetRepository.finish` does); each buildset at most once per call. The
 * records, in the given order, with the project of each one's first ref.
 */
export async function finishBuildsets(
  trx: Knex,
  finishes: readonly BatchedBuildsetFinish[],
): Promise<Array<{ record: BuildsetRecord; firstProject: string | null }>> {
  return (await writeHistory(trx, { finishes })).finished;
}

/**
 * Buildset starts in one statement (docs/gating.md#build-history step 1, in the given order): the
 * refs of all of them inserted when missing (each distinct ref once, the first occurrence's name,
 * URL and branch kept), the buildsets with their given ids, their ref links and their `triggered`
 * events. Returns each buildset's record and the ids of its refs (in the order given), in the
 * given order. When a ref was inserted by another transaction since the statement's snapshot, the
 * refs are found or created one at a time and the statement runs again.
 */
export async function createBuildsets(
  trx: Knex,
  creations: readonly BatchedBuildsetCreation[],
): Promise<Array<{ record: BuildsetRecord; refIds: number[] }>> {
  return (await writeHistory(trx, { creations })).created;
}
