/**
 * The production executor gateway of the engine: builds become rows of `build_requests` that
 * executor workers claim (src/executor/worker.ts); their `build-started` / `build-paused` /
 * `build-completed` result events come back through `engine_events`.
 */
import type { Knex } from 'knex';
import type { BuildParams, ExecutorGateway } from '../engine/ports/executor';
import { BuildRequestRepository } from '../store/repositories/build-requests';
import { toBuildRequestParams, type ProjectConnectionResolver, type ProjectNameResolver } from './build-request-params';

export class BuildRequestExecutor implements ExecutorGateway {
  private readonly requests: BuildRequestRepository;

  constructor(
    knex: Knex,
    private readonly projectName: ProjectNameResolver,
    private readonly now: () => Date = () => new Date(),
    private readonly projectConnection?: ProjectConnectionResolver,
    /**
     * Told after a request was stored that an executor may claim (a new build, a resume):
     * wakes idle executor workers (docs/operations.md#wake-ups).
     */
    private readonly onRequested: () => void = () => undefined,
  ) {
    this.requests = new BuildRequestRepository(knex);
  }

  /**
   * Insert the build request unless it exists (a restart re-submits builds without a result): one
   * statement (docs/gating.md#performance).
   */
  async startBuild(params: BuildParams): Promise<void> {
    await this.startBuilds([params]);
  }

  /** The requests of several builds, each unless it exists, in one statement. */
  async startBuilds(params: readonly BuildParams[]): Promise<void> {
    const created = await this.requests.createIfMissing(
      params.map((each) => ({
        params: toBuildRequestParams(each, this.projectName, this.projectConnection),
        precedence: each.precedence,
      })),
      this.now(),
    );
    if (created > 0) {
      this.onRequested();
    }
  }

  /** Unclaimed requests complete at once as CANCELED; running ones are stopped and end ABORTED. */
  async cancelBuild(_tenant: string, buildUuid: string): Promise<void> {
    await this.requests.requestCancel(buildUuid, 'ABORTED', this.now());
  }

  /** A paused request is flagged; an executor holding its workspace continues it. */
  async resumeBuild(_tenant: string, buildUuid: string): Promise<void> {
    if (await this.requests.requestResume(buildUuid, this.now())) {
      this.onRequested();
    }
  }
}
