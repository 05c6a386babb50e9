/**
 * A complete live view of one tenant's queues: take a status snapshot, then apply the queue
 * deltas pushed over graphql-ws (docs/live.md#the-delta-protocol) with the dashboard's delta
 * application (web/src/status/apply-delta.ts: copy it along with this file), reconnecting with
 * `afterSeq` and re-snapshotting when asked to. Prints the queues whenever they change.
 *
 *   npx tsx examples/live-view/live-status.ts http://localhost:9000 my-tenant [token]
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import {
  applyDelta,
  chains,
  type LiveDelta,
  type LiveItem,
  type LiveJob,
  type LiveModel,
} from '../../web/src/status/apply-delta';

interface Job extends LiveJob {
  result: string | null;
  waitingStatus: string | null;
}
interface Item extends LiveItem {
  active: boolean;
  itemAhead: string | null;
  failingReasons: string[];
  refs: Array<{ id: string; project: string }>;
  jobs: Job[];
}

const JOB = 'name result waitingStatus';
const ITEM = `id active itemAhead failingReasons refs { id project } jobs { ${JOB} }`;
const STATUS = /* GraphQL */ `query ($tenant: String!) {
  tenant(name: $tenant) {
    ... on Tenant { status { ... on TenantStatus { sequence pipelines { name changeQueues { key name window items { ${ITEM} } } } } } }
    ... on Error { message }
  }
}`;
/** The changes a view of these fields needs (changes of other fields are not sent). */
const DELTAS = /* GraphQL */ `subscription ($tenant: String!, $afterSeq: Int) {
  queueEvents(tenant: $tenant, afterSeq: $afterSeq) {
    __typename
    ... on QueueDelta {
      sequence
      changes {
        __typename pipeline
        ... on PipelineChanged { name index }
        ... on QueueChanged { queue index name window }
        ... on QueueRemoved { queue }
        ... on ItemEnqueued { queue position item { ${ITEM} } }
        ... on ItemMoved { queue itemId position itemAhead }
        ... on ItemDequeued { queue itemId }
        ... on ItemChanged { itemId active failingReasons refs { id project } jobs { ${JOB} } }
        ... on JobChange { itemId job { ${JOB} } }
      }
    }
    ... on ResnapshotRequired { cause sequence }
  }
}`;

const [httpUrl = 'http://localhost:9000', tenant = 'example', token] = process.argv.slice(2);

async function snapshot(): Promise<LiveModel> {
  const response = await fetch(`${httpUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: STATUS, variables: { tenant } }),
  });
  const body = (await response.json()) as {
    data?: { tenant: { status?: Omit<LiveModel, 'tenant'>; message?: string } };
  };
  const status = body.data?.tenant.status;
  if (!status) {
    throw new Error(body.data?.tenant.message ?? JSON.stringify(body));
  }
  return { ...status, tenant: {} };
}

function render(view: LiveModel): void {
  const lines = [`--- ${tenant} @ sequence ${view.sequence}`];
  for (const pipeline of view.pipelines) {
    for (const queue of pipeline.changeQueues) {
      lines.push(`${pipeline.name} / ${queue.name} (window ${queue.window})`);
      for (const item of chains(queue.items as unknown as Item[]).flat()) {
        const jobs = item.jobs.map((job) => `${job.name}:${job.result ?? job.waitingStatus ?? 'running'}`).join(' ');
        const state = item.failingReasons.length > 0 ? 'FAILING' : item.active ? 'active' : 'waiting';
        lines.push(`  ${item.refs.map((ref) => `${ref.project} ${ref.id}`).join(', ')} [${state}] ${jobs}`);
      }
    }
  }
  console.log(lines.join('\n'));
}

/** Follow the tenant: snapshot, then deltas; on a dropped connection resume from the last applied sequence. */
async function follow(client: Client): Promise<void> {
  let view = await snapshot();
  render(view);
  for (;;) {
    const resnapshot = await new Promise<boolean>((resolve, reject) => {
      const stop = client.subscribe<{ queueEvents: LiveDelta & { __typename: string } }>(
        { query: DELTAS, variables: { tenant, afterSeq: view.sequence } },
        {
          next: ({ data }) => {
            const event = data?.queueEvents;
            if (!event) {
              return;
            }
            if (event.__typename === 'ResnapshotRequired') {
              stop();
              resolve(true);
              return;
            }
            const next = applyDelta(view, event);
            if (next !== view) {
              view = next;
              render(view);
            }
          },
          error: reject,
          complete: () => resolve(false),
        },
      );
    }).catch((error: unknown) => {
      console.error('subscription ended, resuming:', error instanceof Error ? error.message : error);
      return false;
    });
    if (resnapshot) {
      view = await snapshot();
      render(view);
    }
  }
}

const client = createClient({
  url: `${httpUrl.replace(/^http/, 'ws')}/graphql`,
  webSocketImpl: WebSocket,
  connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  retryAttempts: Infinity,
  shouldRetry: () => true,
});

follow(client).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
