/** One queue item: its change, state, estimated completion, failing reasons and job progress. */
import { memo } from 'react';
import { Link } from 'wouter';
import { formatDuration } from '../format';
import { useNow } from '../clock';
import { ResultBadge } from '../components/common';
import { tenantPath } from '../url';
import type { ItemStatus, JobStatus } from './status-store';
import { ItemActions } from '../admin/item-actions';

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
            <JobLine key={job.name} tenant={tenant} job={job} />
          ))}
        </ul>
      )}
    </li>
  );
});

/**
 * Milliseconds until every job of the item is done by its estimate, from the local clock; null
 * unless every job has started or finished and has an estimate (docs/live.md#times).
 */
function itemRemaining(item: ItemStatus, now: number): number | null {
  if (item.jobs.length === 0) {
    return null;
  }
  let remaining = 0;
  for (const job of item.jobs) {
    if (job.result !== null) {
      continue;
    }
    if (
      job.startTime === null ||
      job.startTime === undefined ||
      job.estimatedTime === null ||
      job.estimatedTime === undefined
    ) {
      return null;
    }
    remaining = Math.max(remaining, job.estimatedTime * 1000 - (now - job.startTime * 1000));
  }
  return remaining;
}

/** The item's ETA, ticking with the shared clock (only this line re-renders every second). */
function ItemEta({ item }: { item: ItemStatus }) {
  const remaining = itemRemaining(item, useNow());
  if (remaining === null || remaining <= 0) {
    return null;
  }
  return (
    <span className="muted small" title="Estimated time to completion">
      ETA {formatDuration(remaining)}
    </span>
  );
}

function JobLine({ tenant, job }: { tenant: string; job: JobStatus }) {
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
      </span>
      <span className="job-state">
        {job.result !== null ? (
          <ResultBadge result={job.result} />
        ) : job.startTime !== null && job.startTime !== undefined ? (
          <JobProgress job={job} />
        ) : (
          <span className="muted small">{job.waitingStatus ?? (job.queued ? 'queued' : 'waiting')}</span>
        )}
      </span>
    </li>
  );
}

function JobProgress({ job }: { job: JobStatus }) {
  const now = useNow();
  // startTime is in epoch seconds and estimatedTime in seconds (the REST status's units).
  const elapsed = Math.max(0, now - (job.startTime ?? 0) * 1000);
  const estimate = job.estimatedTime ? job.estimatedTime * 1000 : null;
  if (job.paused) {
    return <span className="badge tone-warn">paused</span>;
  }
  if (estimate === null) {
    return <span className="small">running {formatDuration(elapsed)}</span>;
  }
  const percent = Math.min(99, Math.round((elapsed / estimate) * 100));
  return (
    <span
      className="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-label={`${job.name} progress`}
    >
      <span className="progress-bar" style={{ width: `${percent}%` }} />
      <span className="progress-text small">
        {percent}% · {formatDuration(Math.max(0, estimate - elapsed))} left
      </span>
    </span>
  );
}
