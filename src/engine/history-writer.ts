/**
 * The engine's build-history writes (docs/gating.md#build-history) through the store repositories. One
 * writer is created per scheduler pass on the pass's transaction, so history rows commit
 * together with the queue state that caused them (nothing is reported twice after a restart).
 * Given an id reserve, the writer collects buildset creations, build starts, build completions
 * and buildset finishes and writes them all in one statement at `flush`
 * (docs/gating.md#performance), which the pass calls before its commit.
 */
import type { Knex } from 'knex';
import { AnalyticsRepository } from '../store/repositories/analytics';
import { BuildRepository } from '../store/repositories/builds';
import { BuildsetRepository, type BuildsetRecord } from '../store/repositories/buildsets';
import { DurationSampleRepository, type SampleBatch } from '../store/repositories/duration-samples';
import {
  historyIdsQuery,
  readHistoryIds,
  reserveHistoryIds,
  type HistoryIdRow,
  type BatchedBuildCompletion,
  type BatchedBuildsetCreation,
  type BatchedBuildsetFinish,
} from '../store/repositories/history-batches';
import { writeHistory, type HistoryStart } from '../store/repositories/history-statement';
import type { QueuedWrite } from '../store/writes-together';
import type { BuildHistoryWriter } from './ports/history';

/** The most ids of each kind a reserve is filled up to by `topUp`. */
const MAX_RESERVE = 1024;

/**
 * Build and buildset ids taken from their sequences ahead, kept across a scheduler's passes (gaps
 * are harmless). A pass fills the reserve up with its closing writes (`topUp`), so that the next
 * one seldom sends a statement of its own for ids.
 */
export class BuildIdReserve {
  private readonly ids = { builds: [] as number[], buildsets: [] as number[] };
  /** Ids of each kind taken since the last `topUp`. */
  private readonly used = { builds: 0, buildsets: 0 };

  constructor(private readonly block = 16) {}

  /** A build id. */
  take(knex: Knex): Promise<number> {
    return this.next(knex, 'builds');
  }

  /** A buildset id. */
  takeBuildset(knex: Knex): Promise<number> {
    return this.next(knex, 'buildsets');
  }

  /**
   * The query that fills the reserve up, each kind to twice what was taken since the last top-up
   * (at least a block, at most `MAX_RESERVE`), to send after other writes (`writeTogether`), and
   * what to do with its rows; null when the reserve holds that much.
   */
  topUp(): { query: QueuedWrite; receive: (rows: readonly HistoryIdRow[]) => void } | null {
    const wanted = (kind: 'builds' | 'buildsets'): number =>
      Math.max(0, Math.min(MAX_RESERVE, Math.max(this.block, 2 * this.used[kind])) - this.ids[kind].length);
    const count = { builds: wanted('builds'), buildsets: wanted('buildsets') };
    this.used.builds = 0;
    this.used.buildsets = 0;
    if (count.builds === 0 && count.buildsets === 0) {
      return null;
    }
    return { query: historyIdsQuery(count), receive: (rows) => this.add(readHistoryIds(rows)) };
  }

  /** When one kind runs out, both are filled up to a block in one statement. */
  private async next(knex: Knex, table: 'builds' | 'buildsets'): Promise<number> {
    if (this.ids[table].length === 0) {
      this.add(
        await reserveHistoryIds(knex, {
          builds: Math.max(0, this.block - this.ids.builds.length),
          buildsets: Math.max(0, this.block - this.ids.buildsets.length),
        }),
      );
    }
    this.used[table] += 1;
    return this.ids[table].shift() as number;
  }

  private add(taken: { builds: number[]; buildsets: number[] }): void {
    this.ids.builds.push(...taken.builds);
    this.ids.buildsets.push(...taken.buildsets);
  }
}

/** A buildset to create at `flush`, and who is told of its row and its refs' ids. */
interface PendingBuildset extends BatchedBuildsetCreation {
  announce: (buildset: BuildsetRecord) => void;
  refsWritten?: (refIds: number[]) => void;
}

/** Announces a buildset row written: called when the write is decided, filled in once written. */
export type BuildsetAnnouncer = () => (buildset: BuildsetRecord) => void;

export class StoreHistoryWriter implements BuildHistoryWriter {
  private readonly buildsets: BuildsetRepository;
  private readonly builds: BuildRepository;
  private creations: PendingBuildset[] = [];
  private starts: HistoryStart[] = [];
  private completions: BatchedBuildCompletion[] = [];
  private finishes: Array<BatchedBuildsetFinish & { announce: (buildset: BuildsetRecord) => void }> = [];

  constructor(
    private readonly knex: Knex,
    /** Told of every buildset row written (created, or finished with its result), in the order decided. */
    private readonly announce: BuildsetAnnouncer = () => () => undefined,
    /** Collects the duration samples of finished builds and buildsets (absent: written at once). */
    private readonly samples?: SampleBatch,
    /** Build ids ahead: writes are collected until `flush` (absent: each is written at once). */
    private readonly reserve?: BuildIdReserve,
  ) {
    this.buildsets = new BuildsetRepository(knex);
    this.builds = new BuildRepository(knex);
  }

  async createBuildset(
    input: Parameters<BuildHistoryWriter['createBuildset']>[0],
    refsWritten?: (refIds: number[]) => void,
  ): Promise<number> {
    const announced = this.announce();
    if (this.reserve) {
      const id = await this.reserve.takeBuildset(this.knex);
      this.creations.push({ id, ...input, announce: announced, refsWritten });
      return id;
    }
    const { buildset, refs } = await this.buildsets.create({
      uuid: input.uuid,
      tenant: input.tenant,
      pipeline: input.pipeline,
      eventId: input.eventId,
      eventTimestamp: input.eventTimestamp,
      refs: input.refs,
      triggeredBy: input.triggeredBy,
      at: input.at,
    });
    announced(buildset);
    refsWritten?.(refs.map((ref) => ref.id));
    return buildset.id;
  }

  async finishBuildset(buildsetId: number, input: Parameters<BuildHistoryWriter['finishBuildset']>[1]): Promise<void> {
    const announced = this.announce();
    if (!this.reserve) {
      announced(await this.buildsets.finish(buildsetId, input, this.samples));
      return;
    }
    // A buildset created since the last flush is finished by a statement of its own after it: one
    // statement cannot update a row it inserts (../store/repositories/history-statement.ts).
    if (this.finishes.some((finish) => finish.id === buildsetId) || this.creations.some((c) => c.id === buildsetId)) {
      await this.flush();
    }
    this.finishes.push({ id: buildsetId, ...input, announce: announced });
  }

  async startBuild(input: Parameters<BuildHistoryWriter['startBuild']>[0]): Promise<number> {
    if (this.reserve) {
      const id = await this.reserve.take(this.knex);
      const { refIndex, ...start } = input;
      // A build of a buildset created since the last flush takes the ref written with it.
      const creation = this.creations.findIndex((created) => created.id === input.buildsetId);
      this.starts.push({ id, ...start, ...(creation < 0 ? {} : { refOf: { creation, index: refIndex } }) });
      return id;
    }
    const record = await this.inTransaction((trx) =>
      this.builds.start(
        {
          buildsetId: input.buildsetId,
          uuid: input.uuid,
          jobName: input.jobName,
          startTime: input.startTime,
          voting: input.voting,
          nodeset: input.nodeset,
          refId: input.refId,
          attempt: input.attempt,
        },
        trx,
      ),
    );
    return record.id;
  }

  async completeBuild(buildId: number, input: Parameters<BuildHistoryWriter['completeBuild']>[1]): Promise<void> {
    if (!this.reserve) {
      await this.inTransaction((trx) => this.builds.complete(buildId, input, trx, this.samples));
      return;
    }
    // A finish decided before sees this completion only when written after it (its last build
    // end, and the flaky flag of later builds of a reported buildset), as with one statement each;
    // a build started since the last flush is completed by a statement after the one inserting it.
    if (
      this.finishes.length > 0 ||
      this.completions.some((done) => done.id === buildId) ||
      this.starts.some((start) => start.id === buildId)
    ) {
      await this.flush();
    }
    this.completions.push({ id: buildId, ...input });
  }

  async buildEvent(buildId: number, input: Parameters<BuildHistoryWriter['buildEvent']>[1]): Promise<void> {
    await this.flush();
    await this.builds.addEvent(buildId, { eventType: input.eventType, eventTime: input.eventTime });
    if (input.resultData !== undefined) {
      await this.builds.setResultData(buildId, input.resultData);
    }
  }

  async recordGateReset(input: Parameters<BuildHistoryWriter['recordGateReset']>[0]): Promise<void> {
    await new AnalyticsRepository(this.knex).recordGateReset(input);
  }

  /**
   * Write what was collected in one statement: created buildsets, started builds, completions and
   * buildset finishes, each seeing the kinds before it as with one statement each
   * (../store/repositories/history-statement.ts). Called before anything reads these rows or what
   * their triggers roll up, and before the pass commits.
   */
  async flush(): Promise<void> {
    const creations = this.creations;
    const starts = this.starts;
    const completions = this.completions;
    const finishes = this.finishes;
    this.creations = [];
    this.starts = [];
    this.completions = [];
    this.finishes = [];
    const written = await writeHistory(this.knex, { creations, starts, completions, finishes });
    for (const [index, { record, refIds }] of written.created.entries()) {
      creations[index].announce(record);
      creations[index].refsWritten?.(refIds);
    }
    const samples = new DurationSampleRepository(this.knex);
    for (const build of written.completed) {
      await samples.recordBuild(build, this.knex, this.samples);
    }
    for (const [index, { record, firstProject }] of written.finished.entries()) {
      finishes[index].announce(record);
      await samples.recordBuildset({ ...record, finished: record.updated }, firstProject, this.knex, this.samples);
    }
  }

  private inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    if (this.knex.isTransaction) {
      return work(this.knex as Knex.Transaction);
    }
    return this.knex.transaction(work);
  }
}
