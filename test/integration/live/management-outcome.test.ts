/**
 * `managementEventOutcome` (schema/management-outcome.ts): an admin request's real result once the
 * scheduler handled it, delivered live through the `management-events-processed` delta or read
 * from the store when it was handled before the subscription; then the subscription ends.
 */
import type { Client } from 'graphql-ws';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { adminToken, startLiveServer, subscribersActive, Subscription, wsClient } from '../../helpers/live';
import { EngineHarness, nextTenant } from '../../engine/harness';
import { job, makeLayout, pipeline } from '../../engine/scripted-layout';

const ENQUEUE = /* GraphQL */ `
  mutation ($input: EnqueueInput!) {
    enqueue(input: $input) {
      __typename
      ... on ManagementEventAccepted {
        eventId
      }
    }
  }
`;

const OUTCOME = /* GraphQL */ `
  subscription ($tenant: String!, $eventId: Int!) {
    managementEventOutcome(tenant: $tenant, eventId: $eventId) {
      eventId
      tenant
      succeeded
      outcome
    }
  }
`;

interface Outcome {
  managementEventOutcome: { eventId: number; tenant: string; succeeded: boolean; outcome: string };
}

describe('managementEventOutcome', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('says what became of an enqueue, live and after the fact, once', async () => {
    const h = new EngineHarness(
      db,
      makeLayout({
        tenant: nextTenant(),
        pipelines: [pipeline('gate', 'dependent', { triggers: [], submit: true })],
        projects: [{ name: 'org/project', queue: 'integrated' }],
        jobs: { 'org/project': { gate: [job('unit')] } },
      }),
    );
    const server = await startLiveServer(db, { harness: h });
    const clients: Client[] = [];
    const client = (): Client => {
      const created = wsClient(server);
      clients.push(created);
      return created;
    };
    try {
      const admin = adminToken(h.tenant);
      const enqueue = async (change: string): Promise<number> => {
        const answer = await server.graphql<{ enqueue: { __typename: string; eventId: number } }>(
          ENQUEUE,
          { input: { tenant: h.tenant, pipeline: 'gate', project: 'org/project', change } },
          admin,
        );
        expect(answer.data?.enqueue.__typename).toBe('ManagementEventAccepted');
        return answer.data?.enqueue.eventId ?? -1;
      };
      h.changes.add('org/project', 1);
      // The scheduler is not started yet: both requests wait, so their outcomes arrive live.
      const known = await enqueue('1,1');
      const unknown = await enqueue('99,1');
      const liveKnown = new Subscription<Outcome>(client(), OUTCOME, { tenant: h.tenant, eventId: known });
      const liveUnknown = new Subscription<Outcome>(client(), OUTCOME, { tenant: h.tenant, eventId: unknown });
      await subscribersActive(server, { delta: 2 });
      expect(liveKnown.results).toEqual([]);
      await h.start();
      await h.settle();
      const [ok] = await liveKnown.waitFor(1);
      expect(ok.data?.managementEventOutcome).toEqual({
        eventId: known,
        tenant: h.tenant,
        succeeded: true,
        outcome: 'ok',
      });
      const [refused] = await liveUnknown.waitFor(1);
      expect(refused.data?.managementEventOutcome).toEqual({
        eventId: unknown,
        tenant: h.tenant,
        succeeded: false,
        outcome: 'error: unknown change',
      });
      await liveKnown.until(() => liveKnown.completed, 5000, 'the end of the subscription');
      expect(liveKnown.results).toHaveLength(1);
      expect(h.deltas.filter((delta) => delta.type === 'management-events-processed')).toHaveLength(1);

      // Handled before the subscription: the stored outcome, at once.
      const late = new Subscription<Outcome>(client(), OUTCOME, { tenant: h.tenant, eventId: unknown });
      const [stored] = await late.waitFor(1);
      expect(stored.data?.managementEventOutcome.outcome).toBe('error: unknown change');
      await late.until(() => late.completed, 5000, 'the end of the subscription');

      // An id the tenant has no management event with is an error, not a wait.
      const missing = new Subscription<Outcome>(client(), OUTCOME, { tenant: h.tenant, eventId: known + 1000 });
      const [error] = await missing.waitFor(1);
      expect(error.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    } finally {
      for (const created of clients) {
        await created.dispose();
      }
      await server.stop();
      await h.stop();
    }
    expect(h.errors).toEqual([]);
  }, 60_000);
});
