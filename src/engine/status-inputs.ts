/**
 * What a status read needs from the store (docs/live.md#status-computation): the tenant's
 * pipeline state with its build-time estimates, its engine record and its pending events. The
 * parsed pipeline state and estimates are kept per tenant with the version of the stored state
 * they were read at (`EngineStateRepository.loadTenantVersion`: the row version of the tenant's
 * `tenant_state` row, which every scheduler pass that changes anything rewrites in the
 * transaction that saves items, jobs and history). While the version stays, a read costs two small queries: the tenant row and
 * the pending events; after a committed pass, here or in another process, the state is read
 * again in one repeatable-read transaction, where only the items whose rows changed are parsed
 * again (src/store/repositories/queued-items.ts).
 */
import type { Knex } from 'knex';
import type { PipelineState } from '../model/pipeline-state';
import { DurationSampleRepository } from '../store/repositories/duration-samples';
import { EngineEventRepository, type PendingEventRouting } from '../store/repositories/engine-events';
import { EngineStateRepository, type TenantEngineRecord } from '../store/repositories/engine-state';
import type { ParsedItems } from '../store/repositories/queued-items';
import { loadEstimates, type StatusEstimates } from './build-estimates';

export interface StatusInputs {
  states: PipelineState[];
  estimates: StatusEstimates;
  record: TenantEngineRecord;
  pending: PendingEventRouting[];
}

interface Parsed {
  version: string;
  /** Shared by every read while the version stays: never changed after it is stored. */
  states: PipelineState[];
  estimates: StatusEstimates;
}

export class StatusInputLoader {
  private readonly state: EngineStateRepository;
  private readonly events: EngineEventRepository;
  private readonly parsed = new Map<string, Parsed>();
  /** Each tenant's queued items as last parsed, by row: a read after a pass parses only what changed. */
  private readonly items = new Map<string, ParsedItems>();

  constructor(private readonly knex: Knex) {
    this.state = new EngineStateRepository(knex);
    this.events = new EngineEventRepository(knex);
  }

  async load(tenant: string): Promise<StatusInputs> {
    const cached = this.parsed.get(tenant);
    if (cached) {
      const { record, version } = await this.state.loadTenantVersion(tenant);
      if (version === cached.version) {
        // The record and the states are of one version; the pending events are read just after.
        return {
          states: cached.states,
          estimates: cached.estimates,
          record,
          pending: await this.events.pendingRouting(tenant),
        };
      }
    }
    // Estimates too: a pass writes the history they are read from (src/engine/build-estimates.ts).
    return this.knex.transaction(
      async (trx) => {
        const { record, version } = await this.state.loadTenantVersion(tenant, trx);
        const pending = await this.events.pendingRouting(tenant, trx);
        let items = this.items.get(tenant);
        if (items === undefined) {
          items = new Map();
          this.items.set(tenant, items);
        }
        const states = await this.state.loadPipelines(tenant, trx, items);
        const estimates = await loadEstimates(new DurationSampleRepository(trx), tenant, states);
        if (version !== null) {
          this.parsed.set(tenant, { version, states, estimates });
        }
        return { states, estimates, record, pending };
      },
      { isolationLevel: 'repeatable read' },
    );
  }
}
