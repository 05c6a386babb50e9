/**
 * `/t/{tenant}/build/{uuid}` and its tabs `/logs`, `/console`, `/artifacts` (the reference's
 * paths; `/log/{path}` opens a file in the logs tab): a build's summary with its task summary and
 * live console, the log file browser, the play/task console of `job-output.json`, the artifacts.
 */
import { Link } from 'wouter';
import { useQuery, useSubscription } from '../api/hooks';
import { ErrorBox, Facts, Loading, PageTitle, RefLink, ResultBadge } from '../components/common';
import { formatDuration, formatTime } from '../format';
import { BuildDetailDocument, BuildUpdatesDocument, type BuildDetailQuery } from '../generated/graphql';
import { tenantPath } from '../url';
import { Console } from './console';
import { AutoholdForm } from '../admin/autohold-form';
import { LogBrowser } from '../logs/log-browser';
import { manifestArtifact, resolveLogUrl } from '../logs/manifest';
import { TaskConsole, TaskSummary, useJobOutput } from '../logs/task-views';

export type BuildTab = 'summary' | 'logs' | 'console' | 'artifacts';

type Build = Extract<
  Extract<NonNullable<BuildDetailQuery['tenant']>, { __typename: 'Tenant' }>['build'],
  { __typename: 'Build' }
>;

const TABS: Array<[BuildTab, string, string]> = [
  ['summary', 'Summary', ''],
  ['logs', 'Logs', '/logs'],
  ['console', 'Console', '/console'],
  ['artifacts', 'Artifacts', '/artifacts'],
];

function BuildTabs({ tenant, uuid, tab }: { tenant: string; uuid: string; tab: BuildTab }) {
  return (
    <nav className="build-tabs" aria-label="Build views">
      {TABS.map(([name, label, suffix]) => (
        <Link
          key={name}
          href={tenantPath(tenant, `build/${uuid}${suffix}`)}
          className={name === tab ? 'active' : ''}
          aria-current={name === tab ? 'page' : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

export default function BuildPage({
  tenant,
  uuid,
  tab,
  logPath,
}: {
  tenant: string;
  uuid: string;
  tab: BuildTab;
  logPath: string | null;
}) {
  const { data, error, refetch } = useQuery(BuildDetailDocument, { tenant, uuid });
  // The page follows the build: a start, pause, resume or end refreshes the summary.
  useSubscription(BuildUpdatesDocument, { tenant, filter: { uuid: [uuid] } }, () => refetch());
  const build =
    data?.tenant?.__typename === 'Tenant' && data.tenant.build?.__typename === 'Build' ? data.tenant.build : null;
  const logBase = build?.logUrl ? resolveLogUrl(build.logUrl, null, location.href) : null;
  const running = build !== null && build.status !== 'COMPLETED';
  const output = useJobOutput(
    tab === 'summary' || tab === 'console' ? logBase : null,
    `${build?.status ?? ''}/${build?.endTime ?? ''}`,
  );
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data === undefined) {
    return <Loading what="the build" />;
  }
  if (data.tenant?.__typename !== 'Tenant') {
    return <ErrorBox error={data.tenant?.message ?? 'Tenant not found'} />;
  }
  if (build === null) {
    const missing = data.tenant.build;
    return <ErrorBox error={missing && 'message' in missing ? missing.message : 'Build not found'} />;
  }
  return (
    <section className="build-page">
      <PageTitle>
        Build {build.jobName} <ResultBadge result={build.result} status={build.status} />
      </PageTitle>
      <BuildTabs tenant={tenant} uuid={build.uuid} tab={tab} />
      {tab === 'summary' && (
        <>
          <BuildFacts tenant={tenant} build={build} />
          <TaskSummary output={output} running={running} />
          <ReturnedData build={build} />
          <Console key={build.uuid} tenant={tenant} uuid={build.uuid} status={build.status} />
          <OtherAttempts tenant={tenant} build={build} />
          <BuildEvents build={build} />
          {build.ref && (
            <AutoholdForm tenant={tenant} project={build.ref.project} job={build.jobName} change={build.ref.change} />
          )}
        </>
      )}
      {tab === 'logs' && <BuildLogs tenant={tenant} build={build} logBase={logBase} logPath={logPath} />}
      {tab === 'console' && <TaskConsole output={output} running={running} />}
      {tab === 'artifacts' && <Artifacts build={build} />}
    </section>
  );
}

function BuildFacts({ tenant, build }: { tenant: string; build: Build }) {
  return (
    <Facts
      rows={[
        ['Pipeline', build.pipeline],
        ['Project', build.ref?.project],
        ['Change / ref', build.ref ? <RefLink tenant={tenant} value={build.ref} /> : null],
        ['Branch', build.ref?.branch],
        [
          'Buildset',
          <Link href={tenantPath(tenant, `buildset/${build.buildset.uuid}`)}>{build.buildset.uuid.slice(0, 12)}</Link>,
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
  );
}

function BuildLogs({
  tenant,
  build,
  logBase,
  logPath,
}: {
  tenant: string;
  build: Build;
  logBase: string | null;
  logPath: string | null;
}) {
  const manifest = manifestArtifact(build.artifacts);
  if (logBase === null) {
    return <p className="empty">The build has no log folder (it did not start).</p>;
  }
  return (
    <>
      <p className="links">
        Log files: <a href={`${logBase}job-output.txt`}>job-output.txt</a> · <a href={logBase}>log directory</a>
      </p>
      {manifest === undefined ? (
        <p className="empty">The file browser appears when the build ends (its folder's manifest is written then).</p>
      ) : (
        <LogBrowser
          tenant={tenant}
          uuid={build.uuid}
          logUrl={logBase}
          manifestUrl={resolveLogUrl(manifest.url, logBase, location.href)}
          openPath={logPath}
        />
      )}
    </>
  );
}

function Artifacts({ build }: { build: Build }) {
  return (
    <section aria-labelledby="artifacts-title">
      <h2 id="artifacts-title">Artifacts</h2>
      {build.artifacts.length === 0 ? (
        <p className="empty">The build returned no artifacts.</p>
      ) : (
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
      )}
    </section>
  );
}

function ReturnedData({ build }: { build: Build }) {
  if (build.returnedData === null || build.returnedData === undefined) {
    return null;
  }
  return (
    <section aria-labelledby="returned-data">
      <h2 id="returned-data">Returned data</h2>
      <pre className="json" tabIndex={0}>
        {JSON.stringify(build.returnedData, null, 2)}
      </pre>
    </section>
  );
}

function OtherAttempts({ tenant, build }: { tenant: string; build: Build }) {
  const retries = build.buildset.builds.filter((b) => b.jobName === build.jobName && b.uuid !== build.uuid);
  if (retries.length === 0) {
    return null;
  }
  return (
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
  );
}

function BuildEvents({ build }: { build: Build }) {
  if (build.events.length === 0) {
    return null;
  }
  return (
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
  );
}
