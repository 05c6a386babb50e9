/** `/t/{tenant}/buildset/{uuid}`: a buildset's refs, builds, events and report ("why did this leave the queue"). */
import { useQuery, useSubscription } from '../api/hooks';
import { ErrorBox, Facts, Loading, PageTitle, RefLink, ResultBadge } from '../components/common';
import { formatTime } from '../format';
import { BuildsetDetailDocument, BuildsetUpdatesDocument } from '../generated/graphql';
import { BuildTable } from './builds';
import { ReenqueueButton } from '../admin/reenqueue-button';

export default function BuildsetPage({ tenant, uuid }: { tenant: string; uuid: string }) {
  const { data, error, refetch } = useQuery(BuildsetDetailDocument, { tenant, uuid });
  useSubscription(BuildsetUpdatesDocument, { tenant, filter: { uuid: [uuid] } }, () => refetch());
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data === undefined) {
    return <Loading what="the buildset" />;
  }
  if (data.tenant?.__typename !== 'Tenant') {
    return <ErrorBox error={data.tenant?.message ?? 'Tenant not found'} />;
  }
  const buildset = data.tenant.buildset;
  if (buildset?.__typename !== 'Buildset') {
    return <ErrorBox error={buildset?.message ?? 'Buildset not found'} />;
  }
  const ref = buildset.refs[0];
  return (
    <section>
      <PageTitle
        actions={ref ? <ReenqueueButton tenant={tenant} pipeline={buildset.pipeline} refValue={ref} /> : undefined}
      >
        Buildset <ResultBadge result={buildset.result} status={buildset.status} />
      </PageTitle>
      <Facts
        rows={[
          ['Pipeline', buildset.pipeline],
          ['Project', buildset.refs.map((r) => r.project).join(', ')],
          [
            'Change / ref',
            <>
              {buildset.refs.map((r, i) => (
                <RefLink key={i} tenant={tenant} value={r} />
              ))}
            </>,
          ],
          ['Branch', ref?.branch],
          ['Created', formatTime(buildset.createdAt)],
          ['First build', formatTime(buildset.firstBuildStartTime)],
          ['Last build end', formatTime(buildset.lastBuildEndTime)],
          ['Event', buildset.eventId],
          ['Uuid', <code>{buildset.uuid}</code>],
        ]}
      />
      {buildset.reportMessage && (
        <section>
          <h2>Report</h2>
          <pre className="report">{buildset.reportMessage}</pre>
        </section>
      )}
      <h2>Builds</h2>
      <BuildTable tenant={tenant} builds={buildset.builds} />
      {buildset.events.length > 0 && (
        <section>
          <h2>Why it left the queue</h2>
          <ul className="events">
            {buildset.events.map((event, i) => (
              <li key={i}>
                <time>{formatTime(event.eventTime)}</time> <strong>{event.eventType}</strong> {event.description}
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
