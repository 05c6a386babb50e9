/**
 * `/t/{tenant}/stream/{uuid}` (`?logfile=console.log`): the live console of one build, the page
 * the REST status's job `url` points at (docs/dashboard.md#pages). It follows the build's end.
 */
import { Link } from 'wouter';
import { useQuery, useSubscription } from '../api/hooks';
import { ErrorBox, Loading, PageTitle, ResultBadge } from '../components/common';
import { BuildHeaderDocument, BuildUpdatesDocument } from '../generated/graphql';
import { tenantPath, useUrlParams } from '../url';
import { Console } from './console';

export default function StreamPage({ tenant, uuid }: { tenant: string; uuid: string }) {
  const { data, error, refetch } = useQuery(BuildHeaderDocument, { tenant, uuid });
  useSubscription(BuildUpdatesDocument, { tenant, filter: { uuid: [uuid] } }, () => refetch());
  const logfile = useUrlParams().get('logfile');
  const build = data?.tenant?.__typename === 'Tenant' ? data.tenant.build : undefined;
  return (
    <section className="stream-page">
      <PageTitle>
        Console{build?.__typename === 'Build' ? ` of ${build.jobName}` : ''}
        {build?.__typename === 'Build' && <ResultBadge result={build.result} status={build.status} />}
      </PageTitle>
      {error !== undefined && <ErrorBox error={error} />}
      {data === undefined && error === undefined && <Loading what="the build" />}
      {data?.tenant?.__typename !== undefined && data.tenant.__typename !== 'Tenant' && (
        <ErrorBox error={data.tenant.message} />
      )}
      {build !== undefined && build !== null && build.__typename !== 'Build' && <ErrorBox error={build.message} />}
      {build?.__typename === 'Build' && (
        <>
          <p className="links">
            <Link href={tenantPath(tenant, `build/${build.uuid}`)}>Build page</Link> · {build.pipeline}
            {build.ref ? ` · ${build.ref.project}` : ''}
          </p>
          {logfile !== null && logfile !== 'console.log' && (
            <p className="notice">Only console.log streams live; {logfile} is in the build&apos;s log folder.</p>
          )}
          <Console key={build.uuid} tenant={tenant} uuid={build.uuid} status={build.status} />
        </>
      )}
    </section>
  );
}
