/** One queue item: its change, state, estimated completion, failing reasons and job progress. */
import { memo } from 'react';
import { Link } from 'wouter';
import { formatDuration } from '../format';
import { useNow } from '../clock';
import { ResultBadge } from '../components/common';
import { tenantPath } from '../url';
import type { ItemStatus, JobStatus } from './status-store';
import { ItemActions } from '../admin/item-actions';
import { useItemEta, useJobEta } from './estimates';

function itemState(item: ItemStatus): { label: string; tone: string } {
  if (!item.live) {
    return { label: 'non-live', tone: 'muted' };
  }
  if (item.failingReasons.length > 0) {
    return { label: 'failing', tone: 'bad' };
  }
  if (!item.active) {
    return { label: item.waitingFor === 'WINDOW' ? 'waiting for window' : 'waiting', tone: 'muted' };
  }
  const done = item.jobs.length > 0 && item.jobs.every((j) => j.result !== null);
  return done ? { label: 'succeeded', tone: 'good' } : { label: 'running', tone: 'info' };
}

export const ItemCard = memo(function ItemCard({
  tenant,
  pipeline,
  item,
}: {
  tenant: string;
  pipeline: string;
  item: ItemStatus;
}) {
  const state = itemState(item);
  const primary = item.refs[0];
  const label = primary?.id ?? item.id;
  const changeNumber = label.split(',')[0];
  return (
    <li className={`item item-${state.tone}${item.live ? '' : ' item-nonlive'}`} data-item={item.id}>
      <div className="item-head">
        <span className={`item-dot tone-${state.tone}`} aria-hidden="true" />
        {/^\d+$/.test(changeNumber) ? (
          <Link href={tenantPath(tenant, `change/${changeNumber}`)} className="item-change">
            {label}
          </Link>
        ) : (
          <span className="item-change">{label}</span>
        )}
        {primary?.url ? (
          <a
            className="external"
            href={primary.url}
            target="_blank"
            rel="noreferrer"
            aria-label={`${label} in the review system`}
          >
            ↗
          </a>
        ) : null}
        <span className="item-project">{item.refs.map((r) => r.project).join(', ')}</span>
        <span className={`badge tone-${state.tone}`}>{state.label}</span>
        <ItemEta item={item} />
        <ItemActions tenant={tenant} pipeline={pipeline} item={item} />
      </div>
      {item.failingReasons.length > 0 && <p className="failing small">{item.failingReasons.join('; ')}</p>}
      {item.live && item.jobs.length > 0 && (
        <ul className="jobs">
          {item.jobs.map((job) => (
            <JobLine key={job.name} tenant={tenant} item={item} job={job} />
          ))}
        </ul>
      )}
    </li>
  );
});

/** A share as a whole percentage. */
function percent(p: number): string {
  return `${Math.round(p * 100)}%`;
}

/**
 * The item's range (docs/analytics.md#item-etas), ticking with the shared clock: only this line
 * re-renders every second. Nothing without history.
 */
function ItemEta({ item }: { item: ItemStatus }) {
  const eta = useItemEta(item);
  if (eta === null || eta.remainingP50 === null || eta.remainingP90 === null) {
    return null;
  }
  const risk = eta.resetProbability >= 0.1 ? ` · ${percent(eta.resetProbability)} reset risk` : '';
  return (
    <span
      className="muted small item-eta"
      data-eta-p50={eta.remainingP50}
      data-eta-p90={eta.remainingP90}
      title={`Reports within ${formatDuration(eta.remainingP50)} (median) to ${formatDuration(eta.remainingP90)} (9 in 10), from its jobs' recent runs, its place in the queue and the risk that an item ahead fails (${percent(eta.resetProbability)}); its own jobs fail ${percent(eta.failureProbability)} of the time`}
    >
      {eta.overdue && <span className="badge tone-warn">overdue</span>} ETA {formatDuration(eta.remainingP50)}–
      {formatDuration(eta.remainingP90)}
      {risk}
    </span>
  );
}

function JobLine({ tenant, item, job }: { tenant: string; item: ItemStatus; job: JobStatus }) {
  const name = job.uuid ? (
    <Link href={tenantPath(tenant, `build/${job.uuid}`)}>{job.name}</Link>
  ) : (
    <span>{job.name}</span>
  );
  return (
    <li className="job">
      <span className="job-name">
        {name}
        {!job.voting && <span className="muted small"> (non-voting)</span>}
        {job.quarantined && (
          <span className="badge tone-warn" title="Quarantined: its failure is reported but does not fail the item">
            quarantined
          </span>
        )}
        {job.retryReason === 'FLAKY' && (
          <span className="muted small" title="It failed and is known to be flaky, so it was retried in place">
            {' '}
            retried: flaky{job.flakyRetries > 1 ? ` ×${job.flakyRetries}` : ''}
          </span>
        )}
      </span>
      <span className="job-state">
        {job.result !== null ? (
          <ResultBadge result={job.result} />
        ) : job.startTime !== null && job.startTime !== undefined ? (
          <JobProgress item={item} job={job} />
        ) : (
          <span className="muted small">{job.waitingStatus ?? (job.queued ? 'queued' : 'waiting')}</span>
        )}
      </span>
    </li>
  );
}

/**
 * A running job: its elapsed time and what is left as a range (docs/analytics.md#job-estimates);
 * past the p90 of its successful runs, by how much it is over its usual duration instead of a
 * frozen percentage.
 */
function JobProgress({ item, job }: { item: ItemStatus; job: JobStatus }) {
  const now = useNow();
  const range = useJobEta(item, job);
  // startTime is in epoch seconds (the REST status's unit).
  const elapsed = Math.max(0, now - (job.startTime ?? 0) * 1000);
  if (job.paused) {
    return <span className="badge tone-warn">paused</span>;
  }
  if (range === null || range.eta.remainingP50 === null || range.eta.remainingP90 === null) {
    return <span className="small">running {formatDuration(elapsed)}</span>;
  }
  const { eta } = range;
  if (eta.overdue) {
    return (
      <span className="small job-overdue" role="status" aria-label={`${job.name} overdue`}>
        <span className="badge tone-warn">overdue</span> running {formatDuration(elapsed)} · over its usual duration by{' '}
        {formatDuration(eta.overdueBy)}
      </span>
    );
  }
  const remaining = eta.remainingP50 ?? 0;
  const done = Math.min(99, Math.round((elapsed / Math.max(1, elapsed + remaining)) * 100));
  return (
    <span
      className="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={done}
      aria-label={`${job.name} progress`}
      title={`From ${range.estimate.successes} recent successful runs (${range.estimate.basis}); fails ${percent(range.estimate.failureProbability)}, retried ${percent(range.estimate.retryProbability)} of the time`}
    >
      <span className="progress-bar" style={{ width: `${done}%` }} />
      <span className="progress-text small">
        {formatDuration(elapsed)} · {formatDuration(eta.remainingP50)}–{formatDuration(eta.remainingP90)} left
      </span>
    </span>
  );
}
