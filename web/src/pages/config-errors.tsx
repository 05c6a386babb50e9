/** `/t/{tenant}/config-errors` and `/t/{tenant}/semaphores`. */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { Empty, PageTitle } from '../components/common';
import { Pager, paging } from '../components/list-filters';
import { TenantData } from '../components/tenant-data';
import { ConfigErrorsDocument, SemaphoresDocument } from '../generated/graphql';
import { tenantPath, useUrlParams } from '../url';

export function ConfigErrorsPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  const project = params.get('project');
  const { data, error } = useQuery(ConfigErrorsDocument, {
    tenant,
    first: limit,
    offset: skip,
    filter: project === null ? undefined : { project },
  });
  return (
    <section>
      <PageTitle>Configuration errors</PageTitle>
      <TenantData data={data} error={error} what="configuration errors">
        {(t) =>
          t.configErrors.nodes.length === 0 ? (
            <Empty>The configuration has no errors.</Empty>
          ) : (
            <>
              <ul className="config-errors">
                {t.configErrors.nodes.map((e, i) => (
                  <li key={i} className={`item item-${e.severity === 'ERROR' ? 'bad' : 'warn'}`}>
                    <div className="item-head">
                      <span className={`badge tone-${e.severity === 'ERROR' ? 'bad' : 'warn'}`}>{e.severity}</span>
                      <strong>{e.shortError}</strong>
                      {e.sourceContext && (
                        <span className="muted small">
                          {e.sourceContext.project} ({e.sourceContext.branch}) {e.sourceContext.path}
                          {e.line !== null && e.line !== undefined ? `:${e.line}` : ''}
                        </span>
                      )}
                    </div>
                    <pre className="report">{e.error}</pre>
                  </li>
                ))}
              </ul>
              <Pager total={t.configErrors.totalCount} shown={t.configErrors.nodes.length} />
            </>
          )
        }
      </TenantData>
    </section>
  );
}

export function SemaphoresPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(SemaphoresDocument, { tenant });
  return (
    <section>
      <PageTitle>Semaphores</PageTitle>
      <TenantData data={data} error={error} what="semaphores">
        {(t) =>
          t.semaphores.length === 0 ? (
            <Empty>The tenant has no semaphores.</Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Semaphore</th>
                  <th scope="col">Held</th>
                  <th scope="col">Max</th>
                  <th scope="col">Global</th>
                </tr>
              </thead>
              <tbody>
                {t.semaphores.map((s) => (
                  <tr key={s.name}>
                    <th scope="row" data-label="Semaphore">
                      <Link href={tenantPath(tenant, `semaphore/${encodeURIComponent(s.name)}`)}>{s.name}</Link>
                    </th>
                    <td data-label="Held">
                      {s.holders.count}
                      {s.holders.otherTenants > 0 ? ` (${s.holders.otherTenants} by other tenants)` : ''}
                    </td>
                    <td data-label="Max">{s.max}</td>
                    <td data-label="Global">{s.global ? 'yes' : 'no'}</td>
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
