/**
 * `/t/{tenant}/freeze-job?pipeline=&project=&branch=&job=`: one job as it would run for a change
 * to a project branch in a pipeline, all its variants and the project's settings combined (the
 * reference's page; `Tenant.freezeJob`, secrets redacted).
 */
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { ErrorBox, Facts, Loading, PageTitle } from '../components/common';
import { JobPicker, useJobPick } from '../components/job-picker';
import { FreezeJobDocument } from '../generated/graphql';
import { tenantPath } from '../url';

export default function FreezeJobPage({ tenant }: { tenant: string }) {
  const pick = useJobPick('job');
  const ready = pick.pipeline !== '' && pick.project !== '' && pick.job !== '';
  const { data, error } = useQuery(
    FreezeJobDocument,
    { tenant, pipeline: pick.pipeline, project: pick.project, branch: pick.branch || null, job: pick.job },
    !ready,
  );
  const result = data?.tenant?.__typename === 'Tenant' ? data.tenant.freezeJob : undefined;
  return (
    <section>
      <PageTitle>Freeze job</PageTitle>
      <p className="muted">
        A job as it would run for a change to a project branch in a pipeline: every variant that matches and the
        project&apos;s settings combined.
      </p>
      <JobPicker jobParam="job" button="Freeze" />
      {ready && error !== undefined && <ErrorBox error={error} />}
      {ready && data === undefined && error === undefined && <Loading what="the frozen job" />}
      {data?.tenant?.__typename !== undefined && data.tenant.__typename !== 'Tenant' && (
        <ErrorBox error={data.tenant.message} />
      )}
      {result !== undefined && result !== null && result.__typename !== 'FrozenJob' && (
        <ErrorBox error={result.message} />
      )}
      {result?.__typename === 'FrozenJob' && (
        <section aria-labelledby="frozen-job">
          <h2 id="frozen-job">
            <Link href={tenantPath(tenant, `job/${encodeURIComponent(result.name)}`)}>{result.name}</Link>
          </h2>
          {result.description && <p>{result.description}</p>}
          <Facts
            rows={[
              ['Parent', result.parent],
              ['Voting', result.voting ? 'yes' : 'no'],
              ['Attempts', String(result.attempts)],
              ['Timeout', result.timeout === null ? null : `${result.timeout} s`],
              [
                'Nodeset',
                `${result.nodeset.name || '(anonymous)'}: ${result.nodeset.nodes.map((n) => `${n.name} (${n.label})`).join(', ') || 'no nodes'}`,
              ],
              ['Depends on', result.dependencies.map((d) => (d.soft ? `${d.name} (soft)` : d.name)).join(', ')],
              ['Semaphores', result.semaphores.map((s) => s.name).join(', ')],
              ['Child jobs', result.childJobs.join(', ')],
              ['Tags', result.tags.join(', ')],
              [
                'Defined in',
                `${result.sourceContext.project} ${result.sourceContext.branch} ${result.sourceContext.path}`,
              ],
            ]}
          />
          <h3>Variants applied, base-most first</h3>
          <ol className="variants">
            {result.inheritancePath.map((variant, i) => (
              <li key={i}>
                <code>{variant}</code>
              </li>
            ))}
          </ol>
          <h3>Parameters</h3>
          <pre className="json" tabIndex={0} aria-label="Parameters of the frozen job">
            {JSON.stringify(result.parameters, null, 2)}
          </pre>
        </section>
      )}
    </section>
  );
}
