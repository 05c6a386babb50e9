/**
 * `/t/{tenant}/semaphore/{name}`: one semaphore (the reference's page): its size, who holds it now
 * in this tenant (and how many holders other tenants have), and the jobs that use it.
 */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { Empty, ErrorBox, Facts, PageTitle } from '../components/common';
import { Table } from '../components/table';
import { TenantData } from '../components/tenant-data';
import { formatTime } from '../format';
import { SemaphoreDetailDocument } from '../generated/graphql';
import { tenantPath } from '../url';

export default function SemaphorePage({ tenant, name }: { tenant: string; name: string }) {
  const { data, error } = useQuery(SemaphoreDetailDocument, { tenant });
  return (
    <section>
      <PageTitle>Semaphore {name}</PageTitle>
      <TenantData data={data} error={error} what="the semaphore">
        {(t) => {
          const semaphore = t.semaphores.find((s) => s.name === name);
          if (semaphore === undefined) {
            return <ErrorBox error={`The tenant has no semaphore ${name}.`} />;
          }
          const users = t.jobs.filter((job) => job.variants.some((v) => v.semaphores.some((s) => s.name === name)));
          return (
            <>
              <Facts
                rows={[
                  ['Max', String(semaphore.max)],
                  ['Held', `${semaphore.holders.count} of ${semaphore.max}`],
                  [
                    'Held by other tenants',
                    semaphore.holders.otherTenants > 0 ? String(semaphore.holders.otherTenants) : null,
                  ],
                  ['Global', semaphore.global ? 'yes (shared by tenants)' : 'no'],
                ]}
              />
              <h2>Holders</h2>
              {semaphore.holders.thisTenant.length === 0 ? (
                <Empty>No job of this tenant holds it now.</Empty>
              ) : (
                <Table
                  head={['Job', 'Buildset', 'Since']}
                  rows={semaphore.holders.thisTenant.map((h) => ({
                    key: `${h.buildsetUuid}/${h.jobName}`,
                    cells: [
                      h.jobName,
                      <Link href={tenantPath(tenant, `buildset/${h.buildsetUuid}`)}>
                        {h.buildsetUuid.slice(0, 12)}
                      </Link>,
                      formatTime(h.acquired),
                    ],
                  }))}
                />
              )}
              <h2>Jobs that use it</h2>
              {users.length === 0 ? (
                <Empty>No job uses it.</Empty>
              ) : (
                <ul>
                  {users.map((job) => (
                    <li key={job.name}>
                      <Link href={tenantPath(tenant, `job/${encodeURIComponent(job.name)}`)}>{job.name}</Link>
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
