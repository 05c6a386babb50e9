/** `/t/{tenant}/builds`: builds with every REST filter, paging in the URL, live updates of the shown page. */
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useQuery, useSubscription } from '../api/hooks';
import { ErrorBox, Loading, PageTitle, RefLink, ResultBadge, Empty } from '../components/common';
import { bool, ints, list, ListFilters, Pager, paging } from '../components/list-filters';
import { formatDuration, formatTime } from '../format';
import {
  BuildsDocument,
  BuildUpdatesDocument,
  type BuildFilter,
  type BuildResult,
  type BuildRowFieldsFragment,
} from '../generated/graphql';
import { tenantPath, useUrlParams } from '../url';

export const BUILD_RESULTS: BuildResult[] = [
  'SUCCESS',
  'FAILURE',
  'ERROR',
  'TIMED_OUT',
  'POST_FAILURE',
  'RETRY_LIMIT',
  'NODE_FAILURE',
  'MERGE_CONFLICT',
  'MERGER_FAILURE',
  'DISK_FULL',
  'SKIPPED',
  'CANCELED',
  'ABORTED',
  'RETRY',
];

const FIELDS = [
  { name: 'project', label: 'Project' },
  { name: 'pipeline', label: 'Pipeline' },
  { name: 'job_name', label: 'Job' },
  { name: 'change', label: 'Change' },
  { name: 'result', label: 'Result', options: BUILD_RESULTS },
  { name: 'branch', label: 'Branch' },
  { name: 'patchset', label: 'Patchset' },
  { name: 'ref', label: 'Ref' },
  { name: 'newrev', label: 'New revision' },
  { name: 'uuid', label: 'Build uuid' },
  { name: 'nodeset', label: 'Nodeset' },
  { name: 'voting', label: 'Voting', boolean: true },
  { name: 'held', label: 'Held', boolean: true },
  { name: 'complete', label: 'Complete', boolean: true },
];

export default function BuildsPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  const filter: BuildFilter = useMemo(
    () => ({
      project: list(params.all('project')),
      pipeline: list(params.all('pipeline')),
      jobName: list(params.all('job_name')),
      change: list(ints(params.all('change'))),
      branch: list(params.all('branch')),
      patchset: list(params.all('patchset')),
      ref: list(params.all('ref')),
      newrev: list(params.all('newrev')),
      uuid: list(params.all('uuid')),
      nodeset: list(params.all('nodeset')),
      result: list(
        params
          .all('result')
          .map((r) => r.toUpperCase())
          .filter((r): r is BuildResult => (BUILD_RESULTS as string[]).includes(r)),
      ),
      voting: bool(params.get('voting')),
      held: bool(params.get('held')),
      complete: bool(params.get('complete')),
    }),
    [params],
  );
  const { data, error } = useQuery(BuildsDocument, { tenant, filter, first: limit, offset: skip });
  const builds = data?.tenant?.__typename === 'Tenant' ? data.tenant.builds : undefined;
  const [rows, setRows] = useState<BuildRowFieldsFragment[]>([]);
  useEffect(() => setRows(builds?.nodes ?? []), [builds]);
  useSubscription(BuildUpdatesDocument, { tenant, filter }, (update) => {
    const build = update.buildUpdated;
    setRows((current) => {
      const index = current.findIndex((b) => b.uuid === build.uuid);
      if (index >= 0) {
        const next = [...current];
        next[index] = build;
        return next;
      }
      return skip === 0 ? [build, ...current].slice(0, limit) : current;
    });
  });
  return (
    <section>
      <PageTitle>Builds</PageTitle>
      <ListFilters fields={FIELDS} />
      {error !== undefined && <ErrorBox error={error} />}
      {data?.tenant?.__typename === 'NotFoundError' && <ErrorBox error={data.tenant.message} />}
      {builds === undefined && error === undefined ? (
        <Loading what="builds" />
      ) : builds !== undefined && rows.length === 0 ? (
        <Empty>No build matches.</Empty>
      ) : (
        <BuildTable tenant={tenant} builds={rows} />
      )}
      {builds !== undefined && <Pager total={Math.max(builds.totalCount, skip + rows.length)} shown={rows.length} />}
    </section>
  );
}

export function BuildTable({ tenant, builds }: { tenant: string; builds: BuildRowFieldsFragment[] }) {
  return (
    <div className="table-wrap">
      <table className="table builds-table">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Project</th>
            <th scope="col">Change / ref</th>
            <th scope="col">Pipeline</th>
            <th scope="col">Duration</th>
            <th scope="col">Start</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {builds.map((build) => (
            <tr key={build.uuid} className={`row-${build.result ?? 'running'}`}>
              <th scope="row" data-label="Job">
                <Link href={tenantPath(tenant, `build/${build.uuid}`)}>{build.jobName}</Link>
                {!build.voting && <span className="muted small"> (non-voting)</span>}
              </th>
              <td data-label="Project">{build.ref?.project}</td>
              <td data-label="Change">{build.ref ? <RefLink tenant={tenant} value={build.ref} /> : null}</td>
              <td data-label="Pipeline">{build.pipeline}</td>
              <td data-label="Duration">{formatDuration(build.duration === null ? null : build.duration * 1000)}</td>
              <td data-label="Start">{formatTime(build.startTime)}</td>
              <td data-label="Result">
                <ResultBadge result={build.result} status={build.status} />
                {build.held && <span className="badge tone-warn">held</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
