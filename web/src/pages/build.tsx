/** `/t/{tenant}/build/{uuid}`: a build's summary, live console, artifacts, events and retries. */
import { Link } from 'wouter';
import { useQuery, useSubscription } from '../api/hooks';
import { ErrorBox, Facts, Loading, PageTitle, RefLink, ResultBadge } from '../components/common';
import { formatDuration, formatTime } from '../format';
import { BuildDetailDocument, BuildUpdatesDocument } from '../generated/graphql';
import { tenantPath } from '../url';
import { Console } from './console';
import { AutoholdForm } from '../admin/autohold-form';
import { LogBrowser } from '../logs/log-browser';
import { manifestArtifact, resolveLogUrl } from '../logs/manifest';

export default function BuildPage({ tenant, uuid, logPath }: { tenant: string; uuid: string; logPath: string | null }) {
  const { data, error, refetch } = useQuery(BuildDetailDocument, { tenant, uuid });
  // The page follows the build: a start, pause, resume or end refreshes the summary.
  useSubscription(BuildUpdatesDocument, { tenant, filter: { uuid: [uuid] } }, () => refetch());
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data === undefined) {
    return <Loading what="the build" />;
  }
  if (data.tenant?.__typename !== 'Tenant') {
    return <ErrorBox error={data.tenant?.message ?? 'Tenant not found'} />;
  }
  const build = data.tenant.build;
  if (build?.__typename !== 'Build') {
    return <ErrorBox error={build?.message ?? 'Build not found'} />;
  }
  const logBase = build.logUrl === null ? null : resolveLogUrl(build.logUrl, null, location.href);
  const manifest = manifestArtifact(build.artifacts);
  const retries = build.buildset.builds.filter((b) => b.jobName === build.jobName && b.uuid !== build.uuid);
  return (
    <section className="build-page">
      <PageTitle>
        Build {build.jobName} <ResultBadge result={build.result} status={build.status} />
      </PageTitle>
      <Facts
        rows={[
          ['Pipeline', build.pipeline],
          ['Project', build.ref?.project],
          ['Change / ref', build.ref ? <RefLink tenant={tenant} value={build.ref} /> : null],
          ['Branch', build.ref?.branch],
          [
            'Buildset',
            <Link href={tenantPath(tenant, `buildset/${build.buildset.uuid}`)}>
              {build.buildset.uuid.slice(0, 12)}
            </Link>,
          ],
          ['Attempt', String(build.attempt)],
          ['Voting', build.voting ? 'yes' : 'no'],
          ['Nodeset', build.nodeset],
          ['Start', formatTime(build.startTime)],
          ['End', formatTime(build.endTime)],
          ['Duration', formatDuration(build.duration === null ? null : build.duration * 1000)],
          ['Held', build.held ? 'yes (autohold)' : null],
          ['Error', build.errorDetail],
          ['Provides', build.provides.join(', ')],
          ['Uuid', <code>{build.uuid}</code>],
        ]}
      />
      {logBase !== null && (
        <p className="links">
          Log files: <a href={`${logBase}job-output.txt`}>job-output.txt</a> · <a href={logBase}>log directory</a>
        </p>
      )}
      {logBase !== null && manifest !== undefined && (
        <LogBrowser
          tenant={tenant}
          uuid={build.uuid}
          logUrl={logBase}
          manifestUrl={resolveLogUrl(manifest.url, logBase, location.href)}
          openPath={logPath}
        />
      )}
      <Console key={build.uuid} tenant={tenant} uuid={build.uuid} status={build.status} />
      {build.artifacts.length > 0 && (
        <section>
          <h2>Artifacts</h2>
          <ul>
            {build.artifacts.map((artifact) => (
              <li key={artifact.name}>
                <a href={artifact.url}>{artifact.name}</a>
                {artifact.metadata !== null && artifact.metadata !== undefined && (
                  <code className="small"> {JSON.stringify(artifact.metadata)}</code>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {build.returnedData !== null && build.returnedData !== undefined && (
        <section aria-labelledby="returned-data">
          <h2 id="returned-data">Returned data</h2>
          <pre className="json" tabIndex={0}>
            {JSON.stringify(build.returnedData, null, 2)}
          </pre>
        </section>
      )}
      {retries.length > 0 && (
        <section>
          <h2>Other attempts of {build.jobName}</h2>
          <ul>
            {retries.map((retry) => (
              <li key={retry.uuid}>
                <Link href={tenantPath(tenant, `build/${retry.uuid}`)}>attempt {retry.attempt}</Link>{' '}
                <ResultBadge result={retry.result} status={retry.status} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {build.events.length > 0 && (
        <section>
          <h2>Events</h2>
          <ul className="events">
            {build.events.map((event, i) => (
              <li key={i}>
                <time>{formatTime(event.eventTime)}</time> <strong>{event.eventType}</strong> {event.description}
              </li>
            ))}
          </ul>
        </section>
      )}
      {build.ref && (
        <AutoholdForm tenant={tenant} project={build.ref.project} job={build.jobName} change={build.ref.change} />
      )}
    </section>
  );
}
