/** `/t/{tenant}/buildsets`: buildsets with every REST filter, paging in the URL, live updates. */
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useQuery, useSubscription } from '../api/hooks';
import { Empty, ErrorBox, Loading, PageTitle, RefLink, ResultBadge } from '../components/common';
import { bool, ints, list, ListFilters, Pager, paging } from '../components/list-filters';
import { formatDuration, formatTime } from '../format';
import {
  BuildsetsDocument,
  BuildsetUpdatesDocument,
  type BuildsetFilter,
  type BuildsetResult,
  type BuildsetRowFieldsFragment,
} from '../generated/graphql';
import { tenantPath, useUrlParams } from '../url';

const RESULTS: BuildsetResult[] = [
  'SUCCESS',
  'FAILURE',
  'ERROR',
  'MERGE_CONFLICT',
  'MERGE_FAILURE',
  'CONFIG_ERROR',
  'NO_JOBS',
  'DEQUEUED',
];

const FIELDS = [
  { name: 'project', label: 'Project' },
  { name: 'pipeline', label: 'Pipeline' },
  { name: 'change', label: 'Change' },
  { name: 'result', label: 'Result', options: RESULTS },
  { name: 'branch', label: 'Branch' },
  { name: 'patchset', label: 'Patchset' },
  { name: 'ref', label: 'Ref' },
  { name: 'newrev', label: 'New revision' },
  { name: 'uuid', label: 'Buildset uuid' },
  { name: 'complete', label: 'Complete', boolean: true },
];

export function useBuildsetFilter(): BuildsetFilter {
  const params = useUrlParams();
  return useMemo(
    () => ({
      project: list(params.all('project')),
      pipeline: list(params.all('pipeline')),
      change: list(ints(params.all('change'))),
      branch: list(params.all('branch')),
      patchset: list(params.all('patchset')),
      ref: list(params.all('ref')),
      newrev: list(params.all('newrev')),
      uuid: list(params.all('uuid')),
      result: list(
        params
          .all('result')
          .map((r) => r.toUpperCase())
          .filter((r): r is BuildsetResult => (RESULTS as string[]).includes(r)),
      ),
      complete: bool(params.get('complete')),
    }),
    [params],
  );
}

export default function BuildsetsPage({ tenant }: { tenant: string }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  const filter = useBuildsetFilter();
  return (
    <section>
      <PageTitle>Buildsets</PageTitle>
      <ListFilters fields={FIELDS} />
      <BuildsetList tenant={tenant} filter={filter} skip={skip} limit={limit} pager />
    </section>
  );
}

/** A live page of buildsets (also used by the change page). */
export function BuildsetList({
  tenant,
  filter,
  skip,
  limit,
  pager,
}: {
  tenant: string;
  filter: BuildsetFilter;
  skip: number;
  limit: number;
  pager?: boolean;
}) {
  const { data, error } = useQuery(BuildsetsDocument, { tenant, filter, first: limit, offset: skip });
  const page = data?.tenant?.__typename === 'Tenant' ? data.tenant.buildsets : undefined;
  const [rows, setRows] = useState<BuildsetRowFieldsFragment[]>([]);
  useEffect(() => setRows(page?.nodes ?? []), [page]);
  useSubscription(BuildsetUpdatesDocument, { tenant, filter }, (update) => {
    const buildset = update.buildsetUpdated;
    setRows((current) => {
      const index = current.findIndex((b) => b.uuid === buildset.uuid);
      if (index >= 0) {
        const next = [...current];
        next[index] = buildset;
        return next;
      }
      return skip === 0 ? [buildset, ...current].slice(0, limit) : current;
    });
  });
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data?.tenant?.__typename === 'NotFoundError') {
    return <ErrorBox error={data.tenant.message} />;
  }
  if (page === undefined) {
    return <Loading what="buildsets" />;
  }
  return (
    <>
      {rows.length === 0 ? (
        <Empty>No buildset matches.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Change / ref</th>
                <th scope="col">Pipeline</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((buildset) => {
                const ref = buildset.refs[0];
                const start = buildset.firstBuildStartTime ?? buildset.createdAt;
                const end = buildset.lastBuildEndTime;
                return (
                  <tr key={buildset.uuid}>
                    <th scope="row" data-label="Project">
                      <Link href={tenantPath(tenant, `buildset/${buildset.uuid}`)}>
                        {ref?.project ?? buildset.uuid.slice(0, 12)}
                      </Link>
                    </th>
                    <td data-label="Change">{ref ? <RefLink tenant={tenant} value={ref} /> : null}</td>
                    <td data-label="Pipeline">{buildset.pipeline}</td>
                    <td data-label="Started">{formatTime(start)}</td>
                    <td data-label="Duration">{end ? formatDuration(Date.parse(end) - Date.parse(start)) : ''}</td>
                    <td data-label="Result">
                      <ResultBadge result={buildset.result} status={buildset.status} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pager && <Pager total={Math.max(page.totalCount, skip + rows.length)} shown={rows.length} />}
    </>
  );
}
