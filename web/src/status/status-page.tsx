/**
 * `/t/{tenant}/status`: every pipeline, its queues and items, live. The data comes from
 * status-store.ts (snapshot + deltas); rows are memoized per item, so a delta re-renders only
 * the items it changed. Filters (project, pipeline, change, "my changes") live in the URL.
 */
import { memo, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useToken } from '../api/hooks';
import { tokenClaims } from '../api/auth';
import { ErrorBox, Loading, PageTitle } from '../components/common';
import { liveStatus, type ItemStatus, type PipelineStatus, type QueueStatus } from './status-store';
import { QueueRangesContext, type EstimateTable } from './estimates';
import { ItemCard } from './item-card';
import { StatusFilters, itemMatcher, type ItemMatcher } from './status-filters';
import { useUrlParams } from '../url';
import { TenantControls } from '../admin/tenant-controls';

/** `pipeline`: the reference's pipeline page (`status/pipeline/<name>`), one pipeline with its own heading. */
export function StatusPage({ tenant, pipeline: onlyPipeline }: { tenant: string; pipeline?: string }) {
  const store = liveStatus(tenant);
  const view = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const params = useUrlParams();
  const token = useToken();
  const me = useMemo(() => {
    const claims = tokenClaims(token);
    return claims?.preferred_username ?? claims?.name ?? claims?.sub ?? null;
  }, [token]);
  const project = params.get('project') ?? '';
  const pipelineFilter = onlyPipeline ?? params.get('pipeline') ?? '';
  const change = params.get('change') ?? '';
  const mine = params.get('mine') === '1';
  const matcher = useMemo(() => itemMatcher({ project, change, owner: mine ? me : null }), [project, change, mine, me]);
  const title = onlyPipeline === undefined ? 'Status' : `Pipeline ${onlyPipeline}`;
  if (view.sequence < 0) {
    return (
      <section className="status-page">
        <PageTitle>{title}</PageTitle>
        {view.error !== null ? <ErrorBox error={view.error} /> : <Loading what="the status" />}
        {view.error?.code === 'NOT_FOUND' && (
          <p>
            <Link href="/tenants">See the tenants</Link>. The page looks again now and then, so a tenant a
            reconfiguration adds appears here.
          </p>
        )}
      </section>
    );
  }
  const pipelines = view.pipelines.filter((p) => pipelineFilter === '' || p.name === pipelineFilter);
  const paused =
    view.state !== null &&
    (view.state.triggerQueuePaused || view.state.resultQueuePaused || view.state.triggerQueueDiscarding);
  return (
    <section className="status-page">
      <PageTitle actions={<TenantControls tenant={tenant} state={view.state} />}>{title}</PageTitle>
      <p className="status-summary" aria-live="polite">
        <span className={view.live ? 'live-on' : 'live-off'}>{view.live ? 'Live' : 'Reconnecting…'}</span>
        {' · '}Events: {view.eventQueues.trigger} trigger, {view.eventQueues.management} management,{' '}
        {view.eventQueues.result} result
        {view.lastReconfiguredAt !== null && ` · Reconfigured ${new Date(view.lastReconfiguredAt).toLocaleString()}`}
      </p>
      {paused && view.state !== null && (
        <div className="notice" role="status">
          Event queues:{view.state.triggerQueuePaused ? ' trigger queue paused' : ''}
          {view.state.triggerQueueDiscarding ? ' trigger events discarded' : ''}
          {view.state.resultQueuePaused ? ' result queue paused' : ''}
          {view.state.reason ? ` — ${view.state.reason}` : ''}
        </div>
      )}
      {view.error !== null && <ErrorBox error={view.error} />}
      {onlyPipeline !== undefined && pipelines.length === 0 && (
        <ErrorBox error={`The tenant has no pipeline ${onlyPipeline}.`} />
      )}
      <StatusFilters
        pipelines={onlyPipeline === undefined ? view.pipelines.map((p) => p.name) : null}
        signedIn={me !== null}
      />
      <div className="pipelines">
        {pipelines.map((pipeline) => (
          <PipelineView
            key={pipeline.name}
            tenant={tenant}
            pipeline={pipeline}
            matcher={matcher}
            estimates={view.estimates}
          />
        ))}
      </div>
    </section>
  );
}

const PipelineView = memo(function PipelineView({
  tenant,
  pipeline,
  matcher,
  estimates,
}: {
  tenant: string;
  pipeline: PipelineStatus;
  matcher: ItemMatcher;
  estimates: EstimateTable;
}) {
  const count = pipeline.changeQueues.reduce((n, q) => n + q.heads.reduce((m, h) => m + h.length, 0), 0);
  const queues = pipeline.changeQueues
    .map((queue) => ({ queue, heads: queue.heads.map((head) => head.filter(matcher)).filter((h) => h.length > 0) }))
    .filter(({ heads }) => heads.length > 0);
  return (
    <section
      className={`pipeline${count === 0 ? ' pipeline-empty' : ''}`}
      aria-labelledby={`pipeline-${pipeline.name}`}
    >
      <header className="pipeline-header">
        <h2 id={`pipeline-${pipeline.name}`}>{pipeline.name}</h2>
        <span className="count" title="Items in this pipeline">
          {count}
        </span>
        {pipeline.state !== 'NORMAL' && <span className="badge tone-bad">{pipeline.state}</span>}
      </header>
      {pipeline.description && <p className="muted small">{pipeline.description}</p>}
      {queues.map(({ queue, heads }) => (
        <QueueRanges key={queue.name} pipeline={pipeline} queue={queue} estimates={estimates}>
          <div className="queue">
            {(pipeline.changeQueues.length > 1 || queue.window > 0) && (
              <h3 className="queue-name">
                {queue.name}
                {queue.branch ? ` (${queue.branch})` : ''}
                {queue.window > 0 && <span className="muted"> · window {queue.window}</span>}
              </h3>
            )}
            {heads.map((head, position) => (
              // Keyed by position: a promote puts another item at the head of a chain, and a chain
              // keyed by its head would be drawn anew, losing what its items' buttons just said.
              <ol className="chain" key={position}>
                {head.map((item: ItemStatus) => (
                  <ItemCard key={item.id} tenant={tenant} pipeline={pipeline.name} item={item} />
                ))}
              </ol>
            ))}
          </div>
        </QueueRanges>
      ))}
    </section>
  );
});

/** The ranges of a queue's items are computed once per queue and clock tick for all its rows (web/src/status/estimates.ts). */
function QueueRanges({
  pipeline,
  queue,
  estimates,
  children,
}: {
  pipeline: PipelineStatus;
  queue: QueueStatus;
  estimates: EstimateTable;
  children: ReactNode;
}) {
  const source = useMemo(
    () => ({ pipeline: pipeline.name, dependent: pipeline.manager === 'DEPENDENT', queue, estimates }),
    [pipeline.name, pipeline.manager, queue, estimates],
  );
  return <QueueRangesContext.Provider value={source}>{children}</QueueRangesContext.Provider>;
}
