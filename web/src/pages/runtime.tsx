/**
 * `/t/{tenant}/runtime?pipeline=&project=&branch=&job_name=`: the durations of a job's finished
 * builds for a project branch in a pipeline (the reference's "job runtimes" page), newest 100.
 */
import { Link, useLocation } from 'wouter';
import { useQuery } from '../api/hooks';
import { BuildTimeChart } from '../components/chart';
import { ErrorBox, Loading, PageTitle } from '../components/common';
import { JobPicker, useJobPick } from '../components/job-picker';
import { BuildTimesChartDocument } from '../generated/graphql';
import { tenantPath } from '../url';

const HISTORY = 100;

export default function RuntimePage({ tenant }: { tenant: string }) {
  const pick = useJobPick('job_name');
  const [, navigate] = useLocation();
  const ready = pick.pipeline !== '' && pick.project !== '' && pick.job !== '';
  const filter = {
    pipeline: [pick.pipeline],
    project: [pick.project],
    jobName: [pick.job],
    branch: pick.branch === '' ? undefined : [pick.branch],
  };
  const { data, error } = useQuery(BuildTimesChartDocument, { tenant, filter, first: HISTORY }, !ready);
  const points = data?.tenant?.__typename === 'Tenant' ? data.tenant.buildTimes.nodes : undefined;
  return (
    <section>
      <PageTitle>Job runtimes</PageTitle>
      <JobPicker jobParam="job_name" button="Show" />
      {ready && error !== undefined && <ErrorBox error={error} />}
      {ready && data === undefined && error === undefined && <Loading what="the build times" />}
      {data?.tenant?.__typename !== undefined && data.tenant.__typename !== 'Tenant' && (
        <ErrorBox error={data.tenant.message} />
      )}
      {points !== undefined && (
        <section aria-labelledby="runtimes">
          <h2 id="runtimes">
            <Link href={tenantPath(tenant, `job/${encodeURIComponent(pick.job)}`)}>{pick.job}</Link> on {pick.project}
            {pick.branch ? ` ${pick.branch}` : ''} in {pick.pipeline}
          </h2>
          <BuildTimeChart points={points} onSelect={(uuid) => navigate(tenantPath(tenant, `build/${uuid}`))} />
          <p className="muted small">
            {points.length} finished builds (at most {HISTORY}, newest first).
          </p>
        </section>
      )}
    </section>
  );
}
