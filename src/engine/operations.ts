/**
 * Admin operations (docs/rest.md#tenant-event-queue-state, docs/rest.md#autohold,
 * docs/rest.md#enqueue-dequeue-and-promote): input validation with typed errors, then a durable management event
 * (enqueue, dequeue, promote) or a direct store change (autohold, tenant event-queue state) with its system event.
 */
import type { Knex } from 'knex';
import { AutoholdRepository, type AutoholdRecord } from '../store/repositories/autohold';
import { EngineEventRepository } from '../store/repositories/engine-events';
import { EngineStateRepository } from '../store/repositories/engine-state';
import { SystemEventRepository } from '../store/repositories/system-events';
import { strategyFor } from './pipeline/strategies';
import { findProject, type EngineLayout, type EngineProject } from './ports/layout';
import type { DequeueEvent, EnqueueEvent, ManagementEvent } from '../model/engine-events';
import type { TenantEventQueueState } from '../model/pipeline-state';
import { ZERO_REVISION } from '../model/changes';
import { BIGINT_MAX } from '../model/value-checks';

export const OPERATION_ERROR_CODES = [
  'UNKNOWN_TENANT',
  'UNKNOWN_PIPELINE',
  'UNKNOWN_PROJECT',
  'UNKNOWN_CHANGE',
  'CHANGE_NOT_IN_PIPELINE',
  'WRONG_MANAGER',
  'INVALID_INPUT',
  'NOT_FOUND',
] as const;
export type OperationErrorCode = (typeof OPERATION_ERROR_CODES)[number];

export interface OperationError {
  code: OperationErrorCode;
  message: string;
}

export type OperationResult<T> = { ok: true; value: T } | { ok: false; error: OperationError };

function fail<T>(code: OperationErrorCode, message: string): OperationResult<T> {
  return { ok: false, error: { code, message } };
}

export interface EnqueueInput {
  pipeline: string;
  project: string;
  /** `N,P` (or `N` for the current patchset). */
  change?: string;
  ref?: string;
  oldrev?: string;
  newrev?: string;
  /** Who asked (recorded in the system event). */
  by?: string | null;
}

export interface DequeueInput {
  pipeline: string;
  project: string;
  change?: string;
  ref?: string;
  by?: string | null;
}

export interface PromoteInput {
  pipeline: string;
  changes: string[];
  by?: string | null;
}

export interface AutoholdInput {
  project: string;
  job: string;
  count: number;
  reason: string;
  /** Seconds; null = the default. */
  nodeHoldExpiration: number | null;
  change?: string | null;
  ref?: string | null;
}

export interface TenantStateInput {
  triggerQueueDiscarding?: boolean;
  triggerQueuePaused?: boolean;
  resultQueuePaused?: boolean;
  reason?: string | null;
}

/** Where live items are looked up to validate dequeue/promote. */
export interface LiveItemLookup {
  hasLiveChange(
    pipeline: string,
    project: string | null,
    change: { number: number; patchset: string | null } | { ref: string },
  ): Promise<boolean>;
}

/** The tenant and project an enqueue or dequeue names, or the error for the first unknown one. */
function resolveTarget(
  layout: EngineLayout | null,
  input: { pipeline: string; project: string },
): OperationResult<{ tenant: string; project: EngineProject }> {
  if (!layout) {
    return fail('UNKNOWN_TENANT', 'Unknown tenant');
  }
  const project = findProject(layout, input.project);
  if (!project) {
    return fail('UNKNOWN_PROJECT', 'Unknown project');
  }
  if (!layout.pipelines.some((pipeline) => pipeline.name === input.pipeline)) {
    return fail('UNKNOWN_PIPELINE', 'Unknown pipeline');
  }
  return { ok: true, value: { tenant: layout.tenant, project } };
}

function parseChange(text: string): { number: number; patchset: string | null } | null {
  const match = /^(\d+)(?:,(\w+))?$/.exec(text.trim());
  if (!match) {
    return null;
  }
  return { number: Number(match[1]), patchset: match[2] ?? null };
}

/** The ref filter for an autohold on a change (Gerrit-style change refs). */
export function changeRefFilter(change: string): string {
  const number = Number(change);
  return `refs/changes/${String(number % 100).padStart(2, '0')}/${number}/.*`;
}

export class EngineOperations {
  private readonly events: EngineEventRepository;
  private readonly autohold: AutoholdRepository;
  private readonly state: EngineStateRepository;
  private readonly systemEvents: SystemEventRepository;

  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date,
    private readonly wake: (tenant: string) => void,
    private readonly defaultHoldExpiration: number = 0,
  ) {
    this.events = new EngineEventRepository(knex);
    this.autohold = new AutoholdRepository(knex);
    this.state = new EngineStateRepository(knex);
    this.systemEvents = new SystemEventRepository(knex);
  }

  /** Store a management event for the tenant's scheduler and wake it; returns the event id. */
  private async queue(tenant: string, event: ManagementEvent): Promise<OperationResult<{ eventId: number }>> {
    const eventId = await this.events.append({ tenant, event, created: this.now() });
    this.wake(tenant);
    return { ok: true, value: { eventId } };
  }

  /** Queue an admin enqueue of a change or a ref update; returns the event id. */
  async enqueue(layout: EngineLayout | null, input: EnqueueInput): Promise<OperationResult<{ eventId: number }>> {
    const target = resolveTarget(layout, input);
    if (!target.ok) {
      return target;
    }
    const { tenant, project } = target.value;
    const common = { pipeline: input.pipeline, project: project.canonicalName, by: input.by ?? null };
    let event: EnqueueEvent;
    if (input.change !== undefined) {
      const change = parseChange(input.change);
      if (!change) {
        return fail('INVALID_INPUT', `Invalid change "${input.change}" (expected N,P)`);
      }
      event = { ...common, type: 'enqueue', change: change.number, patchset: change.patchset ?? undefined };
    } else if (input.ref !== undefined) {
      // Revisions left out are zero revisions, as the reference's clients send them (docs/rest.md#enqueue-dequeue-and-promote).
      const oldrev = input.oldrev || ZERO_REVISION;
      const newrev = input.newrev || ZERO_REVISION;
      event = { ...common, type: 'enqueue', ref: input.ref, oldrev, newrev };
    } else {
      return fail('INVALID_INPUT', 'Invalid request body');
    }
    return this.queue(tenant, event);
  }

  /** Queue an admin dequeue; the change (or ref) must be a live item of the pipeline. */
  async dequeue(
    layout: EngineLayout | null,
    lookup: LiveItemLookup,
    input: DequeueInput,
  ): Promise<OperationResult<{ eventId: number }>> {
    const target = resolveTarget(layout, input);
    if (!target.ok) {
      return target;
    }
    const { tenant, project } = target.value;
    if ((input.change === undefined) === (input.ref === undefined)) {
      return fail('INVALID_INPUT', 'Invalid request body');
    }
    const common = { pipeline: input.pipeline, project: project.canonicalName, by: input.by ?? null };
    let event: DequeueEvent;
    if (input.change !== undefined) {
      const change = parseChange(input.change);
      if (!change) {
        return fail('INVALID_INPUT', `Invalid change "${input.change}" (expected N,P)`);
      }
      if (!(await lookup.hasLiveChange(input.pipeline, project.canonicalName, change))) {
        return fail('CHANGE_NOT_IN_PIPELINE', `Change ${input.change} is not in pipeline ${input.pipeline}`);
      }
      event = { ...common, type: 'dequeue', change: change.number, patchset: change.patchset ?? undefined };
    } else {
      const ref = input.ref ?? '';
      if (!(await lookup.hasLiveChange(input.pipeline, project.canonicalName, { ref }))) {
        return fail('CHANGE_NOT_IN_PIPELINE', `Ref ${ref} is not in pipeline ${input.pipeline}`);
      }
      event = { ...common, type: 'dequeue', ref };
    }
    return this.queue(tenant, event);
  }

  /** Queue a promote; every change must be a live item; supercedent pipelines cannot be reordered. */
  async promote(
    layout: EngineLayout | null,
    lookup: LiveItemLookup,
    input: PromoteInput,
  ): Promise<OperationResult<{ eventId: number }>> {
    if (!layout) {
      return fail('UNKNOWN_TENANT', 'Unknown tenant');
    }
    const pipeline = layout.pipelines.find((candidate) => candidate.name === input.pipeline);
    if (!pipeline) {
      return fail('UNKNOWN_PIPELINE', 'Unknown pipeline');
    }
    if (!strategyFor(pipeline.manager).promotable) {
      return fail(
        'WRONG_MANAGER',
        `Pipeline ${pipeline.name} uses the ${pipeline.manager} manager, whose queues cannot be reordered`,
      );
    }
    if (input.changes.length === 0) {
      return fail('INVALID_INPUT', 'No changes to promote');
    }
    for (const text of input.changes) {
      const change = parseChange(text);
      if (!change || change.patchset === null) {
        return fail('INVALID_INPUT', `Invalid change "${text}" (expected N,P)`);
      }
      if (!(await lookup.hasLiveChange(input.pipeline, null, change))) {
        return fail('CHANGE_NOT_IN_PIPELINE', `Change ${text} is not in pipeline ${input.pipeline}`);
      }
    }
    return this.queue(layout.tenant, {
      type: 'promote',
      pipeline: input.pipeline,
      changes: input.changes,
      by: input.by ?? null,
    });
  }

  /** Create an autohold request (docs/rest.md#autohold validation order). */
  async createAutohold(layout: EngineLayout | null, input: AutoholdInput): Promise<OperationResult<AutoholdRecord>> {
    if (!layout) {
      return fail('UNKNOWN_TENANT', 'Unknown tenant');
    }
    const project = findProject(layout, input.project);
    if (!project) {
      return fail('UNKNOWN_PROJECT', 'Unknown project');
    }
    if (input.change && input.ref) {
      return fail('INVALID_INPUT', 'change and ref are mutually exclusive');
    }
    if (!Number.isInteger(input.count) || input.count < 0) {
      return fail('INVALID_INPUT', 'Count must be greater than 0');
    }
    const refFilter = input.change ? changeRefFilter(input.change) : (input.ref ?? '.*');
    try {
      new RegExp(refFilter);
    } catch (error) {
      return fail(
        'INVALID_INPUT',
        `argument is not a valid regular expression: "${error instanceof Error ? error.message : String(error)}"`,
      );
    }
    const record = await this.autohold.create({
      tenant: layout.tenant,
      project: project.canonicalName,
      job: input.job,
      refFilter,
      reason: input.reason,
      maxCount: input.count,
      nodeExpiration: input.nodeHoldExpiration ?? this.defaultHoldExpiration,
      created: this.now(),
    });
    await this.systemEvents.record({
      tenant: layout.tenant,
      eventType: 'autohold-created',
      eventTime: this.now(),
      description: `Autohold request ${record.id} created for ${record.project} ${record.job}`,
      data: { requestId: record.id },
    });
    return { ok: true, value: record };
  }

  async listAutoholds(tenant: string, projectSuffix?: string): Promise<AutoholdRecord[]> {
    return this.autohold.list(tenant, projectSuffix);
  }

  /** One request of a tenant; the id may be given without zero padding. */
  async getAutohold(tenant: string, id: string): Promise<OperationResult<AutoholdRecord>> {
    const numeric = /^\d+$/.test(id) ? BigInt(id) : null;
    if (numeric !== null && numeric > BIGINT_MAX) {
      return fail('INVALID_INPUT', `Autohold id ${id} is out of range (at most ${BIGINT_MAX})`);
    }
    const record = numeric === null ? null : await this.autohold.find(numeric.toString());
    if (!record || record.tenant !== tenant) {
      return fail('NOT_FOUND', `Hold request ${id} not found.`);
    }
    return { ok: true, value: record };
  }

  async deleteAutohold(tenant: string, id: string): Promise<OperationResult<true>> {
    const found = await this.getAutohold(tenant, id);
    if (!found.ok) {
      return found;
    }
    await this.autohold.delete(Number(found.value.id));
    await this.systemEvents.record({
      tenant,
      eventType: 'autohold-deleted',
      eventTime: this.now(),
      description: `Autohold request ${found.value.id} deleted`,
      data: { requestId: found.value.id },
    });
    return { ok: true, value: true };
  }

  /**
   * Pause/discard tenant event queues (docs/rest.md#tenant-event-queue-state): missing flags keep their value, the
   * reason is replaced.
   */
  async setTenantState(
    layout: EngineLayout | null,
    input: TenantStateInput,
  ): Promise<OperationResult<TenantEventQueueState>> {
    if (!layout) {
      return fail('UNKNOWN_TENANT', 'Unknown tenant');
    }
    const { tenant } = layout;
    const now = this.now();
    const next = await this.knex.transaction(async (trx) => {
      await this.state.ensureTenant(tenant, now, trx);
      const current = await this.state.loadTenant(tenant, trx, true);
      const state: TenantEventQueueState = {
        triggerQueueDiscarding: input.triggerQueueDiscarding ?? current.eventQueues.triggerQueueDiscarding,
        triggerQueuePaused: input.triggerQueuePaused ?? current.eventQueues.triggerQueuePaused,
        resultQueuePaused: input.resultQueuePaused ?? current.eventQueues.resultQueuePaused,
        reason: input.reason ? String(input.reason).slice(0, 4096) : null,
      };
      await this.state.saveTenant(tenant, { ...current, eventQueues: state }, now, trx);
      await new SystemEventRepository(trx).record({
        tenant,
        eventType: 'tenant-state-changed',
        eventTime: now,
        description: `Tenant event queues: ${describeQueues(state)}`,
        data: { ...state },
      });
      return state;
    });
    this.wake(tenant);
    return { ok: true, value: next };
  }
}

function describeQueues(state: TenantEventQueueState): string {
  const parts = [
    state.triggerQueueDiscarding ? 'trigger events discarded' : null,
    state.triggerQueuePaused ? 'trigger events paused' : null,
    state.resultQueuePaused ? 'result events paused' : null,
  ].filter((part): part is string => part !== null);
  const text = parts.length === 0 ? 'processing normally' : parts.join(', ');
  return state.reason ? `${text} (${state.reason})` : text;
}
