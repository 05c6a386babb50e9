/**
 * The engine's build-history writes (docs/gating.md#build-history) through the store repositories. One
 * writer is created per scheduler pass on the pass's transaction, so history rows commit
 * together with the queue state that caused them (nothing is reported twice after a restart).
 */
import type { Knex } from 'knex';
import { AnalyticsRepository } from '../store/repositories/analytics';
import { BuildRepository } from '../store/repositories/builds';
import { BuildsetRepository, type BuildsetRecord } from '../store/repositories/buildsets';
import type { SampleBatch } from '../store/repositories/duration-samples';
import type { BuildHistoryWriter } from './ports/history';

export class StoreHistoryWriter implements BuildHistoryWriter {
  private readonly buildsets: BuildsetRepository;
  private readonly builds: BuildRepository;

  constructor(
    private readonly knex: Knex,
    /** Told of every buildset row written (created, or finished with its result). */
    private readonly onBuildsetChanged: (buildset: BuildsetRecord) => void = () => undefined,
    /** Collects the duration samples of finished builds and buildsets (absent: written at once). */
    private readonly samples?: SampleBatch,
  ) {
    this.buildsets = new BuildsetRepository(knex);
    this.builds = new BuildRepository(knex);
  }

  async createBuildset(
    input: Parameters<BuildHistoryWriter['createBuildset']>[0],
  ): Promise<{ id: number; refIds: number[] }> {
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
    this.onBuildsetChanged(buildset);
    return { id: buildset.id, refIds: refs.map((ref) => ref.id) };
  }

  async finishBuildset(buildsetId: number, input: Parameters<BuildHistoryWriter['finishBuildset']>[1]): Promise<void> {
    this.onBuildsetChanged(await this.buildsets.finish(buildsetId, input, this.samples));
  }

  async startBuild(input: Parameters<BuildHistoryWriter['startBuild']>[0]): Promise<number> {
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
    await this.inTransaction((trx) => this.builds.complete(buildId, input, trx, this.samples));
  }

  async buildEvent(buildId: number, input: Parameters<BuildHistoryWriter['buildEvent']>[1]): Promise<void> {
    await this.builds.addEvent(buildId, { eventType: input.eventType, eventTime: input.eventTime });
    if (input.resultData !== undefined) {
      await this.builds.setResultData(buildId, input.resultData);
    }
  }

  async recordGateReset(input: Parameters<BuildHistoryWriter['recordGateReset']>[0]): Promise<void> {
    await new AnalyticsRepository(this.knex).recordGateReset(input);
  }

  private inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    if (this.knex.isTransaction) {
      return work(this.knex as Knex.Transaction);
    }
    return this.knex.transaction(work);
  }
}
