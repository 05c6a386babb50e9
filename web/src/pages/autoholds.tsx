/** `/t/{tenant}/autoholds` and `/t/{tenant}/autohold/{id}`: autohold requests, their held nodes, delete. */
import { Link, useLocation } from 'wouter';
import { useQuery } from '../api/hooks';
import { Empty, ErrorBox, Facts, PageTitle } from '../components/common';
import { TenantData } from '../components/tenant-data';
import { ActionButton } from '../admin/action-button';
import { runAction } from '../admin/run-action';
import { useIsAdmin } from '../admin/use-admin';
import { formatTime } from '../format';
import { AutoholdDeleteDocument, AutoholdDetailDocument, AutoholdsDocument } from '../generated/graphql';
import { tenantPath } from '../url';

export function AutoholdsPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(AutoholdsDocument, { tenant });
  return (
    <section>
      <PageTitle>Autoholds</PageTitle>
      <TenantData data={data} error={error} what="autohold requests">
        {(t) =>
          t.autoholds.length === 0 ? (
            <Empty>No autohold request. Tenant admins create them from a build page.</Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Project</th>
                  <th scope="col">Job</th>
                  <th scope="col">Ref filter</th>
                  <th scope="col">Count</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {t.autoholds.map((a) => (
                  <tr key={a.id}>
                    <th scope="row" data-label="Id">
                      <Link href={tenantPath(tenant, `autohold/${a.id}`)}>{a.id}</Link>
                    </th>
                    <td data-label="Project">{a.project}</td>
                    <td data-label="Job">{a.job}</td>
                    <td data-label="Ref filter">
                      <code>{a.refFilter}</code>
                    </td>
                    <td data-label="Count">
                      {a.currentCount} / {a.maxCount}
                    </td>
                    <td data-label="Reason">{a.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </TenantData>
    </section>
  );
}

export function AutoholdPage({ tenant, id }: { tenant: string; id: string }) {
  const { data, error } = useQuery(AutoholdDetailDocument, { tenant, id });
  const admin = useIsAdmin(tenant);
  const [, navigate] = useLocation();
  return (
    <section>
      <TenantData data={data} error={error} what="the autohold request">
        {(t) => {
          if (t.autohold?.__typename !== 'Autohold') {
            return <ErrorBox error={t.autohold?.message ?? 'Autohold not found'} />;
          }
          const a = t.autohold;
          return (
            <>
              <PageTitle
                actions={
                  admin ? (
                    <ActionButton
                      label="Delete"
                      onDone={(outcome) => outcome.ok && navigate(tenantPath(tenant, 'autoholds'))}
                      run={() =>
                        runAction(
                          AutoholdDeleteDocument,
                          { input: { tenant, id: a.id } },
                          (d) => d.autoholdDelete,
                          'Deleted.',
                        )
                      }
                    />
                  ) : undefined
                }
              >
                Autohold {a.id}
              </PageTitle>
              <Facts
                rows={[
                  ['Project', a.project],
                  ['Job', a.job],
                  ['Ref filter', <code>{a.refFilter}</code>],
                  ['Held', `${a.currentCount} of ${a.maxCount}`],
                  ['Node expiration', a.nodeExpiration === 0 ? 'never' : `${a.nodeExpiration} s`],
                  ['Reason', a.reason],
                  ['Created', formatTime(a.created)],
                  ['Expired', formatTime(a.expired)],
                ]}
              />
              <h2>Held builds</h2>
              {a.nodes.length === 0 ? (
                <Empty>No build has been held yet.</Empty>
              ) : (
                <ul>
                  {a.nodes.map((held) => (
                    <li key={held.build}>
                      <Link href={tenantPath(tenant, `build/${held.build}`)}>{held.build}</Link>:{' '}
                      {held.nodes.join(', ')}
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        }}
      </TenantData>
    </section>
  );
}
