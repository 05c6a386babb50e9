/** `/t/{tenant}/jobs` and `/t/{tenant}/job/{name}`: jobs, variants, inheritance, where they run, build times. */
import { Link, useLocation } from 'wouter';
import { useQuery } from '../api/hooks';
import { Empty, PageTitle } from '../components/common';
import { BuildTimeChart } from '../components/chart';
import { TenantData } from '../components/tenant-data';
import { JobDetailDocument, JobsDocument } from '../generated/graphql';
import { tenantPath, useUrlParams } from '../url';

export function JobsPage({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(JobsDocument, { tenant });
  const params = useUrlParams();
  const search = (params.get('q') ?? '').toLowerCase();
  return (
    <section>
      <PageTitle>Jobs</PageTitle>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Name or description
          <input value={params.get('q') ?? ''} onChange={(e) => params.set({ q: e.target.value }, { replace: true })} />
        </label>
      </form>
      <TenantData data={data} error={error} what="jobs">
        {(t) => {
          const jobs = t.jobs.filter(
            (job) =>
              search === '' ||
              job.name.toLowerCase().includes(search) ||
              (job.description ?? '').toLowerCase().includes(search),
          );
          return jobs.length === 0 ? (
            <Empty>No job matches.</Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Job</th>
                  <th scope="col">Parent</th>
                  <th scope="col">Variants</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {jobs.map((job) => (
                  <tr key={job.name}>
                    <th scope="row" data-label="Job">
                      <Link href={tenantPath(tenant, `job/${encodeURIComponent(job.name)}`)}>{job.name}</Link>
                    </th>
                    <td data-label="Parent">{job.variants[0]?.parent ?? ''}</td>
                    <td data-label="Variants">{job.variants.length}</td>
                    <td data-label="Description">{job.description ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          );
        }}
      </TenantData>
    </section>
  );
}

export function JobPage({ tenant, name }: { tenant: string; name: string }) {
  const { data, error } = useQuery(JobDetailDocument, { tenant, name, history: 100 });
  const [, navigate] = useLocation();
  return (
    <section>
      <PageTitle>Job {name}</PageTitle>
      <TenantData data={data} error={error} what="the job">
        {(t) => {
          if (t.job?.__typename !== 'Job') {
            return <Empty>{t.job?.message ?? 'Job not found'}</Empty>;
          }
          const job = t.job;
          return (
            <>
              {job.description && <p>{job.description}</p>}
              <p className="links">
                <Link href={tenantPath(tenant, `builds?job_name=${encodeURIComponent(name)}`)}>Builds of this job</Link>
              </p>
              <h2>Build times</h2>
              <BuildTimeChart
                points={t.buildTimes.nodes}
                onSelect={(uuid) => navigate(tenantPath(tenant, `build/${uuid}`))}
              />
              <h2>Variants</h2>
              {job.variants.map((variant, index) => (
                <article className="variant" key={index}>
                  <h3>
                    {variant.variantDescription || `variant ${index + 1}`}
                    {variant.abstract && <span className="badge tone-muted">abstract</span>}
                    {variant.final && <span className="badge tone-muted">final</span>}
                    {variant.protected && <span className="badge tone-muted">protected</span>}
                  </h3>
                  <dl className="facts">
                    <div>
                      <dt>Inherits from</dt>
                      <dd>
                        {variant.parent ? (
                          <Link href={tenantPath(tenant, `job/${encodeURIComponent(variant.parent)}`)}>
                            {variant.parent}
                          </Link>
                        ) : (
                          'nothing (base job)'
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt>Branches</dt>
                      <dd>{variant.branches?.join(', ') || 'all'}</dd>
                    </div>
                    <div>
                      <dt>Runs on</dt>
                      <dd>
                        {variant.nodeset
                          ? `${variant.nodeset.name || 'anonymous nodeset'}: ${variant.nodeset.nodes.map((n) => `${n.name} (${n.label})`).join(', ')}`
                          : 'inherited'}
                      </dd>
                    </div>
                    <div>
                      <dt>Run</dt>
                      <dd>{variant.run.map((p) => p.path).join(', ') || 'inherited'}</dd>
                    </div>
                    <div>
                      <dt>Depends on</dt>
                      <dd>
                        {variant.dependencies.map((d) => `${d.name}${d.soft ? ' (soft)' : ''}`).join(', ') || 'nothing'}
                      </dd>
                    </div>
                    <div>
                      <dt>Timeout / attempts / voting</dt>
                      <dd>
                        {variant.timeout ?? '—'} s / {variant.attempts} / {variant.voting ? 'yes' : 'no'}
                      </dd>
                    </div>
                    <div>
                      <dt>Semaphores</dt>
                      <dd>{variant.semaphores.map((s) => s.name).join(', ') || 'none'}</dd>
                    </div>
                    <div>
                      <dt>Defined in</dt>
                      <dd>
                        {variant.sourceContext
                          ? `${variant.sourceContext.project} (${variant.sourceContext.branch}) ${variant.sourceContext.path}`
                          : 'built in'}
                      </dd>
                    </div>
                  </dl>
                </article>
              ))}
            </>
          );
        }}
      </TenantData>
    </section>
  );
}
