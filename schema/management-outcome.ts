/**
 * `managementEventOutcome`: what became of an admin request (enqueue, dequeue, promote) once
 * the tenant's scheduler handled it. The mutations answer as soon as the request is queued
 * (docs/gating.md#operations); a client that wants the real result follows it here
 * (docs/dashboard.md#signing-in says how the dashboard does).
 */
import { GraphQLError } from 'graphql';
import type { Engine } from '../src/engine/engine';
import { builder } from './infra/builder';
import { requireEngine } from './infra/control-errors';
import type { QueueFeedEvent } from './infra/live-feeds';
import { requireLive, tenantFeed } from './subscriptions';

interface OutcomeValue {
  eventId: number;
  tenant: string;
  outcome: string;
}

const ManagementEventOutcome = builder.objectRef<OutcomeValue>('ManagementEventOutcome').implement({
  description: 'What the scheduler did with an admin request (the `eventId` of its `ManagementEventAccepted`).',
  fields: (t) => ({
    eventId: t.exposeInt('eventId', { nullable: false, description: 'Id of the management event.' }),
    tenant: t.exposeString('tenant', { nullable: false, description: 'Tenant name.' }),
    succeeded: t.boolean({
      nullable: false,
      description: 'True when the scheduler carried the request out.',
      resolve: (value) => value.outcome === 'ok',
    }),
    outcome: t.exposeString('outcome', {
      nullable: false,
      description:
        'The outcome the scheduler recorded: `ok`, or `error: <reason>` (`unknown change`, `change not in pipeline`, a refusal of the enqueue...).',
    }),
  }),
});

/**
 * One outcome, then the end: the stored one when the event was handled already, else the one a
 * `management-events-processed` delta carries (the store is read again after lost deltas). The
 * live feed is registered before the store is read, so no outcome falls between the two.
 */
class OutcomeFeed implements AsyncIterator<OutcomeValue> {
  private finished = false;
  private checked = false;

  constructor(
    private readonly live: AsyncIterator<QueueFeedEvent>,
    private readonly engine: Engine,
    private readonly tenant: string,
    private readonly eventId: number,
  ) {}

  /** The stored outcome, or null while the event waits; an id the tenant has no management event with is an error. */
  private async stored(): Promise<OutcomeValue | null> {
    const found = await this.engine.managementEventOutcome(this.tenant, this.eventId);
    if (found === null) {
      throw new GraphQLError(`Tenant ${this.tenant} has no management event ${this.eventId}`, {
        extensions: { code: 'NOT_FOUND' },
      });
    }
    return found.processed ? { eventId: this.eventId, tenant: this.tenant, outcome: found.outcome ?? 'ok' } : null;
  }

  async next(): Promise<IteratorResult<OutcomeValue>> {
    if (this.finished) {
      return { value: undefined, done: true };
    }
    let found: OutcomeValue | null = null;
    if (!this.checked) {
      this.checked = true;
      found = await this.stored();
    }
    while (found === null) {
      const next = await this.live.next();
      if (next.done) {
        return this.return();
      }
      const event = next.value;
      if (event.kind === 'resnapshot') {
        found = await this.stored();
      } else if (event.delta.type === 'management-events-processed') {
        const handled = event.delta.events.find((e) => e.eventId === this.eventId);
        found = handled ? { eventId: this.eventId, tenant: this.tenant, outcome: handled.outcome } : null;
      }
    }
    this.finished = true;
    await this.live.return?.();
    return { value: found, done: false };
  }

  async return(): Promise<IteratorResult<OutcomeValue>> {
    this.finished = true;
    await this.live.return?.();
    return { value: undefined, done: true };
  }
}

builder.subscriptionFields((t) => ({
  managementEventOutcome: t.field({
    type: ManagementEventOutcome,
    nullable: false,
    description:
      'What became of an admin request (enqueue, dequeue, promote): one event once the scheduler has handled it (at once when it already has), then the subscription ends. An id the tenant has no management event with is a NOT_FOUND error.',
    args: {
      tenant: t.arg.string({ required: true, description: 'Tenant name.' }),
      eventId: t.arg.int({ required: true, description: "The `eventId` of the mutation's `ManagementEventAccepted`." }),
    },
    authScopes: (_root, { tenant }) => ({ tenantRead: tenant }),
    subscribe: async (_root, { tenant, eventId }, ctx) => {
      const engine = requireEngine(ctx);
      const live = await requireLive(ctx).queueEvents(tenant, null, ['management-events-processed']);
      return tenantFeed(ctx, tenant, new OutcomeFeed(live, engine, tenant, eventId), (value: OutcomeValue) => [value]);
    },
    resolve: (value: OutcomeValue) => value,
  }),
}));
