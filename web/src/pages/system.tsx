/** `/t/{tenant}/system-events` (live) and `/components`. */
import { useEffect, useState } from 'react';
import { useQuery, useSubscription } from '../api/hooks';
import { Empty, ErrorBox, Loading, PageTitle } from '../components/common';
import { Pager, paging } from '../components/list-filters';
import { formatTime } from '../format';
import {
  ComponentsDocument,
  SystemEventsDocument,
  SystemEventsLiveDocument,
  type SystemEventFieldsFragment,
} from '../generated/graphql';
import { useUrlParams } from '../url';

export function SystemEventsPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  const { data, error } = useQuery(SystemEventsDocument, { tenant, first: limit, offset: skip });
  const page = data?.tenant?.__typename === 'Tenant' ? data.tenant.systemEvents : undefined;
  const [rows, setRows] = useState<SystemEventFieldsFragment[]>([]);
  useEffect(() => setRows(page?.nodes ?? []), [page]);
  useSubscription(
    SystemEventsLiveDocument,
    { tenant },
    (event) => {
      setRows((current) =>
        current.some((e) => e.databaseId === event.systemEvents.databaseId)
          ? current
          : [event.systemEvents, ...current].slice(0, limit),
      );
    },
    { skip: skip > 0 },
  );
  return (
    <section>
      <PageTitle>System events</PageTitle>
      {error !== undefined && <ErrorBox error={error} />}
      {page === undefined && error === undefined ? (
        <Loading what="system events" />
      ) : rows.length === 0 ? (
        <Empty>No system event yet.</Empty>
      ) : (
        <ul className="events">
          {rows.map((e) => (
            <li key={e.databaseId}>
              <time>{formatTime(e.eventTime)}</time> <strong>{e.eventType}</strong> {e.description}
            </li>
          ))}
        </ul>
      )}
      {page !== undefined && <Pager total={Math.max(page.totalCount, skip + rows.length)} shown={rows.length} />}
    </section>
  );
}

export function ComponentsPage() {
  const { data, error } = useQuery(ComponentsDocument, {});
  return (
    <section>
      <PageTitle>Components</PageTitle>
      {error !== undefined && <ErrorBox error={error} />}
      {data === undefined ? (
        error === undefined && <Loading what="components" />
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Host</th>
              <th scope="col">State</th>
              <th scope="col">Version</th>
            </tr>
          </thead>
          <tbody>
            {data.components.map((c, i) => (
              <tr key={i}>
                <th scope="row" data-label="Kind">
                  {c.kind}
                </th>
                <td data-label="Host">{c.hostname}</td>
                <td data-label="State">{c.state}</td>
                <td data-label="Version">{c.version}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
