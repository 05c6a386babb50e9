/**
 * The analytics page's flake-aware gating (docs/analytics.md#flake-aware-gating): the tenant's
 * quarantine list (tenant admins add and remove jobs: `quarantineAdd`, `quarantineRemove`, each an
 * audited system event) and the newest flaky retries with their reason (`flaky-retry` events).
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from '../api/hooks';
import { ActionButton, Outcome } from '../admin/action-button';
import { runAction, type ActionOutcome } from '../admin/run-action';
import { useIsAdmin } from '../admin/use-admin';
import { Empty, ErrorBox } from '../components/common';
import { Table } from '../components/table';
import { formatTime } from '../format';
import {
  FlakyRetriesDocument,
  QuarantineAddDocument,
  QuarantineRemoveDocument,
  TenantQuarantineDocument,
} from '../generated/graphql';
import { tenantPath } from '../url';
import { percent } from './numbers';

const RETRIES_SHOWN = 20;

function AddForm({ tenant, onAdded }: { tenant: string; onAdded: () => void }) {
  const [job, setJob] = useState('');
  const [project, setProject] = useState('');
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  return (
    <form
      className="inline-form"
      aria-label="Quarantine a job"
      onSubmit={(event) => {
        event.preventDefault();
        void runAction(
          QuarantineAddDocument,
          { input: { tenant, job: job.trim(), project: project.trim() || undefined, reason } },
          (data) => data.quarantineAdd,
          `${job.trim()} quarantined.`,
        ).then((result) => {
          setOutcome(result);
          if (result.ok) {
            setJob('');
            setProject('');
            setReason('');
            onAdded();
          }
        });
      }}
    >
      <label>
        Job <input required value={job} onChange={(e) => setJob(e.target.value)} />
      </label>
      <label>
        Project <input value={project} placeholder="every project" onChange={(e) => setProject(e.target.value)} />
      </label>
      <label>
        Reason <input required value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit">Quarantine</button>
      <Outcome outcome={outcome} />
    </form>
  );
}

export function QuarantineList({ tenant }: { tenant: string }) {
  const admin = useIsAdmin(tenant);
  const { data, error, refetch } = useQuery(TenantQuarantineDocument, { tenant });
  const list = data?.tenant?.__typename === 'Tenant' ? data.tenant.quarantine : undefined;
  const head = ['Job', 'Project', 'Reason', 'Added by', 'Added'];
  return (
    <section aria-labelledby="quarantine">
      <h2 id="quarantine">Quarantine</h2>
      <p className="muted small">A quarantined job still runs; its failure is reported but does not fail its item.</p>
      {error !== undefined && <ErrorBox error={error} />}
      {list !== undefined && list.length === 0 && <Empty>No job is quarantined.</Empty>}
      {list !== undefined && list.length > 0 && (
        <Table
          head={admin ? [...head, ''] : head}
          rows={list.map((entry) => ({
            key: `${entry.job}\n${entry.project ?? ''}`,
            cells: [
              entry.job,
              entry.project ?? 'every project',
              entry.reason,
              entry.addedBy ?? '',
              formatTime(entry.addedAt),
              ...(admin
                ? [
                    <ActionButton
                      label="Remove"
                      run={() =>
                        runAction(
                          QuarantineRemoveDocument,
                          { input: { tenant, job: entry.job, project: entry.project ?? undefined } },
                          (result) => result.quarantineRemove,
                          `${entry.job} taken off the list.`,
                        )
                      }
                      onDone={(outcome) => outcome.ok && refetch()}
                    />,
                  ]
                : []),
            ],
          }))}
        />
      )}
      {admin && <AddForm tenant={tenant} onAdded={refetch} />}
    </section>
  );
}

interface FlakyRetryData {
  pipeline?: string;
  job?: string;
  buildUuid?: string;
  flakeRate?: number;
  retry?: number;
}

export function FlakyRetries({ tenant }: { tenant: string }) {
  const { data, error } = useQuery(FlakyRetriesDocument, { tenant, first: RETRIES_SHOWN });
  const events = data?.tenant?.__typename === 'Tenant' ? data.tenant.systemEvents : undefined;
  return (
    <section aria-labelledby="flaky-retries">
      <h2 id="flaky-retries">Flaky retries</h2>
      <p className="muted small">
        A known-flaky job that failed in a pipeline with flaky retries on was retried in place instead of failing its
        item and resetting the items behind it (newest {RETRIES_SHOWN}).
      </p>
      {error !== undefined && <ErrorBox error={error} />}
      {events !== undefined && (
        <Table
          head={['When', 'Job', 'Pipeline', 'Flake rate', 'Build', 'Why']}
          rows={events.nodes.map((event) => {
            const details = (event.data ?? {}) as FlakyRetryData;
            return {
              key: String(event.databaseId),
              cells: [
                formatTime(event.eventTime),
                details.job ?? '',
                details.pipeline ?? '',
                details.flakeRate === undefined ? '' : percent(details.flakeRate),
                details.buildUuid ? (
                  <Link href={tenantPath(tenant, `build/${details.buildUuid}`)}>{details.buildUuid.slice(0, 7)}</Link>
                ) : (
                  ''
                ),
                event.description,
              ],
            };
          })}
        />
      )}
    </section>
  );
}
