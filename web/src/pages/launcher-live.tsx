/**
 * `/t/{tenant}/nodes` (with node hold) and `/t/{tenant}/nodeset-requests`: pages of the launcher's
 * records kept live by `nodeEvents` and `nodesetRequestEvents` (the page first, then each
 * change; docs/dashboard.md#live-updates-and-reconnection). Nothing polls.
 */
import { Link } from 'wouter';
import { useLiveList, type ListEvent } from '../api/live-list';
import { ErrorBox, Loading, PageTitle } from '../components/common';
import { Pager, paging } from '../components/list-filters';
import { Table } from '../components/table';
import { ActionButton } from '../admin/action-button';
import { runAction } from '../admin/run-action';
import { useIsAdmin } from '../admin/use-admin';
import { formatTime } from '../format';
import {
  NodeEventsDocument,
  NodeHoldDocument,
  NodesetRequestEventsDocument,
  type NodeEventsSubscription,
  type NodeFieldsFragment,
  type NodesetRequestEventsSubscription,
  type NodesetRequestFieldsFragment,
} from '../generated/graphql';
import { providerName, providerPath, useUrlParams } from '../url';

function nodeEvent(data: NodeEventsSubscription): ListEvent<NodeFieldsFragment> {
  const event = data.nodeEvents;
  return event.__typename === 'ProviderNodesSnapshot'
    ? { kind: 'snapshot', records: event.records, totalCount: event.totalCount }
    : { kind: 'change', uuid: event.uuid, record: event.record, totalCount: event.totalCount };
}

function requestEvent(data: NodesetRequestEventsSubscription): ListEvent<NodesetRequestFieldsFragment> {
  const event = data.nodesetRequestEvents;
  return event.__typename === 'NodesetRequestsSnapshot'
    ? { kind: 'snapshot', records: event.records, totalCount: event.totalCount }
    : { kind: 'change', uuid: event.uuid, record: event.record, totalCount: event.totalCount };
}

/** The page the URL asks for, as the subscription's variables and the list's paging. */
function usePage(): { first: number; offset: number } {
  const { skip, limit } = paging(useUrlParams());
  return { first: limit, offset: skip };
}

export function NodesPage({ tenant }: { tenant: string }) {
  const page = usePage();
  const { state, error } = useLiveList(NodeEventsDocument, { tenant, ...page }, page, nodeEvent);
  const admin = useIsAdmin(tenant);
  return (
    <section>
      <PageTitle>Nodes</PageTitle>
      {error !== undefined && <ErrorBox error={error} />}
      {state === undefined ? (
        error === undefined && <Loading what="nodes" />
      ) : (
        <>
          <Table
            head={['Node', 'Label', 'Provider', 'State', 'Since', 'Host', 'Comment', '']}
            rows={state.records.map((n) => ({
              key: n.uuid,
              cells: [
                <code>{n.uuid.slice(0, 12)}</code>,
                n.label,
                n.provider ? <Link href={providerPath(tenant, n.provider)}>{providerName(n.provider)}</Link> : '',
                <span data-node-state={n.state}>{n.state}</span>,
                formatTime(n.stateTime),
                n.host ?? '',
                n.comment ?? '',
                admin && n.state !== 'HOLD' ? (
                  <ActionButton
                    label="Hold"
                    className="small-button"
                    run={() =>
                      runAction(
                        NodeHoldDocument,
                        { input: { tenant, nodeId: n.uuid, comment: 'held from the dashboard' } },
                        (d) => d.nodeHold,
                        'Node held.',
                      )
                    }
                  />
                ) : (
                  ''
                ),
              ],
            }))}
          />
          <Pager total={state.totalCount} shown={state.records.length} />
        </>
      )}
    </section>
  );
}

export function NodesetRequestsPage({ tenant }: { tenant: string }) {
  const page = usePage();
  const { state, error } = useLiveList(NodesetRequestEventsDocument, { tenant, ...page }, page, requestEvent);
  return (
    <section>
      <PageTitle>Nodeset requests</PageTitle>
      {error !== undefined && <ErrorBox error={error} />}
      {state === undefined ? (
        error === undefined && <Loading what="nodeset requests" />
      ) : (
        <>
          <Table
            head={['Request', 'State', 'Labels', 'Job', 'Pipeline', 'Project', 'Requested', 'Failure']}
            rows={state.records.map((r) => ({
              key: r.uuid,
              cells: [
                <code>{r.uuid.slice(0, 12)}</code>,
                <span data-request-state={r.state}>{r.state}</span>,
                r.labels.join(', '),
                r.jobName ?? '',
                r.pipelineName ?? '',
                r.project ?? '',
                formatTime(r.requestTime),
                r.failureReason ?? '',
              ],
            }))}
          />
          <Pager total={state.totalCount} shown={state.records.length} />
        </>
      )}
    </section>
  );
}
