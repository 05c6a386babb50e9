/** `/tenants`: every tenant the caller may read, with its projects and live items. */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { ErrorBox, Loading, PageTitle } from '../components/common';
import { TenantsDocument } from '../generated/graphql';
import { tenantPath } from '../url';

export function TenantsPage() {
  const { data, error } = useQuery(TenantsDocument, {});
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data === undefined) {
    return <Loading what="tenants" />;
  }
  return (
    <section>
      <PageTitle>Tenants</PageTitle>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Tenant</th>
            <th scope="col">Projects</th>
            <th scope="col">Queued items</th>
            <th scope="col">Pages</th>
          </tr>
        </thead>
        <tbody>
          {data.tenants.map((tenant) => {
            const items =
              tenant.status?.__typename === 'TenantStatus'
                ? tenant.status.pipelines.reduce(
                    (sum, p) => sum + p.changeQueues.reduce((s, q) => s + q.heads.reduce((n, h) => n + h.length, 0), 0),
                    0,
                  )
                : 0;
            return (
              <tr key={tenant.name}>
                <th scope="row">
                  <Link href={tenantPath(tenant.name, 'status')}>{tenant.name}</Link>
                </th>
                <td>{tenant.projects.length}</td>
                <td>{items}</td>
                <td className="links">
                  <Link href={tenantPath(tenant.name, 'builds')}>Builds</Link>{' '}
                  <Link href={tenantPath(tenant.name, 'buildsets')}>Buildsets</Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
