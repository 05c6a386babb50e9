/**
 * Quarantine operations (docs/analytics.md#quarantine): tenant admins add a job (for one project
 * or every project) to the list whose failures are reported but do not fail their item, or take
 * it off; each change is audited with a `quarantine-changed` system event. The scheduler reads the
 * list when a build fails (src/engine/jobs/flaky-gating.ts).
 */
import type { Knex } from 'knex';
import { QuarantineRepository, type QuarantineEntry } from '../store/repositories/quarantine';
import { SystemEventRepository } from '../store/repositories/system-events';
import type { OperationResult } from './operations';
import { findProject, type EngineLayout } from './ports/layout';

export interface QuarantineInput {
  job: string;
  /** Short or canonical project name; null for every project of the tenant. */
  project: string | null;
  reason: string;
  by: string | null;
}

/** The canonical name of `project` in the layout (null stays null: every project). */
function projectOf(layout: EngineLayout, project: string | null): OperationResult<string | null> {
  if (project === null) {
    return { ok: true, value: null };
  }
  const found = findProject(layout, project);
  return found
    ? { ok: true, value: found.canonicalName }
    : { ok: false, error: { code: 'UNKNOWN_PROJECT', message: 'Unknown project' } };
}

export class QuarantineOperations {
  private readonly entries: QuarantineRepository;

  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date,
  ) {
    this.entries = new QuarantineRepository(knex);
  }

  list(tenant: string): Promise<QuarantineEntry[]> {
    return this.entries.list(tenant);
  }

  async add(layout: EngineLayout | null, input: QuarantineInput): Promise<OperationResult<QuarantineEntry>> {
    if (!layout) {
      return { ok: false, error: { code: 'UNKNOWN_TENANT', message: 'Unknown tenant' } };
    }
    if (input.job.trim() === '' || input.reason.trim() === '') {
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'job and reason must not be empty' } };
    }
    const project = projectOf(layout, input.project);
    if (!project.ok) {
      return project;
    }
    const entry = await this.knex.transaction(async (trx) => {
      const added = await this.entries.add(
        { tenant: layout.tenant, project: project.value, job: input.job, reason: input.reason, addedBy: input.by },
        this.now(),
        trx,
      );
      await this.audit(trx, layout.tenant, 'added to', added, input.by);
      return added;
    });
    return { ok: true, value: entry };
  }

  async remove(
    layout: EngineLayout | null,
    input: Omit<QuarantineInput, 'reason'>,
  ): Promise<OperationResult<QuarantineEntry>> {
    if (!layout) {
      return { ok: false, error: { code: 'UNKNOWN_TENANT', message: 'Unknown tenant' } };
    }
    const project = projectOf(layout, input.project);
    if (!project.ok) {
      return project;
    }
    const removed = await this.knex.transaction(async (trx) => {
      const entry = await this.entries.remove(layout.tenant, input.job, project.value, trx);
      if (entry !== null) {
        await this.audit(trx, layout.tenant, 'removed from', entry, input.by);
      }
      return entry;
    });
    return removed === null
      ? { ok: false, error: { code: 'NOT_FOUND', message: 'The job is not in the quarantine list' } }
      : { ok: true, value: removed };
  }

  private async audit(
    trx: Knex,
    tenant: string,
    what: string,
    entry: QuarantineEntry,
    by: string | null,
  ): Promise<void> {
    await new SystemEventRepository(trx).record(
      {
        tenant,
        eventType: 'quarantine-changed',
        eventTime: this.now(),
        description: `Job ${entry.job} (${entry.project ?? 'every project'}) ${what} the quarantine list by ${by ?? 'an administrator'}: ${entry.reason}`,
        data: {
          action: what === 'added to' ? 'added' : 'removed',
          job: entry.job,
          project: entry.project,
          reason: entry.reason,
          by,
        },
      },
      trx,
    );
  }
}
