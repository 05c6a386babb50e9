/**
 * The analytics page's breakdowns over the whole range: node-hours by label (bars), the busiest
 * hours of the week (a UTC weekday × hour grid shaded by items enqueued) and each job's figures.
 */
import { Table } from '../components/table';
import { Empty } from '../components/common';
import { percent, shortSeconds, type AnalyticsData } from './numbers';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function NodeHoursBars({ labels }: { labels: AnalyticsData['nodeHours'] }) {
  const max = Math.max(0, ...labels.map((label) => label.hours));
  return (
    <section aria-labelledby="node-hours" className="analytics-panel">
      <h3 id="node-hours">Node-hours by label</h3>
      {labels.length === 0 ? (
        <Empty>No node was in use in this range.</Empty>
      ) : (
        <ul className="hbars">
          {labels.map((label) => (
            <li key={label.label} data-label-hours={label.label}>
              <span className="hbar-name">{label.label}</span>
              <span className="hbar-track" aria-hidden="true">
                <span className="hbar" style={{ width: `${max > 0 ? (label.hours / max) * 100 : 0}%` }} />
              </span>
              <span className="hbar-value">{Number(label.hours.toFixed(2))} h</span>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">Hours nodes were in use, whatever the filters.</p>
    </section>
  );
}

export function BusiestHours({ hours }: { hours: AnalyticsData['busiestHours'] }) {
  const byCell = new Map(hours.map((h) => [`${h.weekday}-${h.hour}`, h]));
  const max = Math.max(0, ...hours.map((h) => h.itemsEnqueued));
  const top = hours.filter((h) => h.itemsEnqueued > 0).slice(0, 3);
  const label = (weekday: number, hour: number) => `${WEEKDAYS[weekday]} ${String(hour).padStart(2, '0')}:00 UTC`;
  return (
    <section aria-labelledby="busiest-hours" className="analytics-panel">
      <h3 id="busiest-hours">Busiest hours</h3>
      {hours.length === 0 ? (
        <Empty>Nothing enqueued or run in this range.</Empty>
      ) : (
        <>
          <div
            className="heatmap"
            role="img"
            aria-label="Items enqueued by UTC weekday and hour; the busiest are listed below"
          >
            {WEEKDAYS.map((day, weekday) => (
              <div className="heatmap-row" key={day}>
                <span className="heatmap-day">{day}</span>
                {Array.from({ length: 24 }, (_, hour) => {
                  const cell = byCell.get(`${weekday}-${hour}`);
                  const share = max > 0 && cell ? cell.itemsEnqueued / max : 0;
                  return (
                    <span
                      key={hour}
                      className="heatmap-cell"
                      style={{ opacity: cell ? 0.15 + 0.85 * share : 0.06 }}
                      title={`${label(weekday, hour)}: ${cell?.itemsEnqueued ?? 0} items enqueued, ${cell?.runs ?? 0} runs`}
                    />
                  );
                })}
              </div>
            ))}
          </div>
          <ol className="busiest small">
            {top.map((h) => (
              <li key={`${h.weekday}-${h.hour}`} data-busy-hour={`${h.weekday}-${h.hour}`}>
                {label(h.weekday, h.hour)}: {h.itemsEnqueued} items enqueued, {h.runs} runs
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export function JobTable({ jobs, onPick }: { jobs: AnalyticsData['jobs']; onPick: (job: string) => void }) {
  const rate = (value: number | null) => (value === null ? '–' : percent(value));
  return (
    <section aria-labelledby="job-figures">
      <h2 id="job-figures">Jobs</h2>
      <Table
        head={['Job', 'Runs', 'Failures', 'Failure rate', 'Flaky', 'Flake rate', 'Retried', 'Mean duration']}
        rows={jobs.map((job) => ({
          key: job.job,
          cells: [
            <button type="button" className="link-button" onClick={() => onPick(job.job)} title="Show only this job">
              {job.job}
            </button>,
            job.runs,
            job.failures,
            rate(job.failureRate),
            job.flaky,
            rate(job.flakeRate),
            job.retries,
            job.meanDuration === null ? '–' : shortSeconds(job.meanDuration),
          ],
        }))}
      />
    </section>
  );
}
