/**
 * A complete live view of one tenant's queues: take a status snapshot, then apply queue deltas
 * pushed over graphql-ws, reconnecting with `afterSeq` and re-snapshotting when asked to.
 * Prints the queues whenever they change.
 *
 *   npx tsx examples/live-view/live-status.ts http://localhost:9000 my-tenant [token]
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

interface Job {
  name: string;
  result: string | null;
  waitingStatus: string | null;
}
interface Item {
  id: string;
  active: boolean;
  failingReasons: string[];
  refs: Array<{ id: string; project: string }>;
  jobs: Job[];
}
interface Pipeline {
  name: string;
  changeQueues: Array<{ name: string; window: number; heads: Item[][] }>;
}
interface Snapshot {
  sequence: number;
  pipelines: Pipeline[];
}
interface QueueEvent {
  __typename: string;
  sequence?: number;
  pipelineStatus?: Pipeline | null;
}

const PIPELINE = /* GraphQL */ `
  name
  changeQueues { name window heads { id active failingReasons refs { id project } jobs { name result waitingStatus } } }
`;
const STATUS = /* GraphQL */ `query ($tenant: String!) {
  tenant(name: $tenant) { ... on Tenant { status { ... on TenantStatus { sequence pipelines { ${PIPELINE} } } } } ... on Error { message } }
}`;
const DELTAS = /* GraphQL */ `subscription ($tenant: String!, $afterSeq: Int) {
  queueEvents(tenant: $tenant, afterSeq: $afterSeq) {
    __typename
    ... on QueueEvent { sequence pipelineStatus { ${PIPELINE} } }
    ... on ResnapshotRequired { cause sequence }
  }
}`;

const [httpUrl = 'http://localhost:9000', tenant = 'example', token] = process.argv.slice(2);

async function snapshot(): Promise<Snapshot> {
  const response = await fetch(`${httpUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: STATUS, variables: { tenant } }),
  });
  const body = (await response.json()) as { data?: { tenant: { status?: Snapshot; message?: string } } };
  const status = body.data?.tenant.status;
  if (!status) {
    throw new Error(body.data?.tenant.message ?? JSON.stringify(body));
  }
  return status;
}

/** Apply one delta: replace the pipeline it carries; deltas already in the snapshot are skipped. */
function apply(view: Snapshot, event: QueueEvent): Snapshot {
  const pipeline = event.pipelineStatus;
  if (event.sequence === undefined || event.sequence <= view.sequence || !pipeline) {
    return event.sequence !== undefined && event.sequence > view.sequence
      ? { ...view, sequence: event.sequence }
      : view;
  }
  return {
    sequence: event.sequence,
    pipelines: view.pipelines.map((candidate) => (candidate.name === pipeline.name ? pipeline : candidate)),
  };
}

function render(view: Snapshot): void {
  const lines = [`--- ${tenant} @ sequence ${view.sequence}`];
  for (const pipeline of view.pipelines) {
    for (const queue of pipeline.changeQueues) {
      lines.push(`${pipeline.name} / ${queue.name} (window ${queue.window})`);
      for (const item of queue.heads.flat()) {
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
      const stop = client.subscribe<{ queueEvents: QueueEvent & { cause?: string } }>(
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
            view = apply(view, event);
            render(view);
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
