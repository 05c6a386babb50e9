/** Tenant admin controls on the status page: enqueue a change, pause, resume or discard the event queues. */
import { useState } from 'react';
import { ActionButton, Outcome } from './action-button';
import { runAction, type ActionOutcome } from './run-action';
import { useIsAdmin } from './use-admin';
import { EnqueueDocument, TenantStateSetDocument } from '../generated/graphql';
import type { TenantQueueState } from '../status/status-store';

export function TenantControls({ tenant, state }: { tenant: string; state: TenantQueueState | null }) {
  const admin = useIsAdmin(tenant);
  const [enqueueOpen, setEnqueueOpen] = useState(false);
  if (!admin) {
    return null;
  }
  const setState = (
    input: { triggerQueuePaused?: boolean; triggerQueueDiscarding?: boolean; resultQueuePaused?: boolean },
    done: string,
  ) =>
    runAction(
      TenantStateSetDocument,
      { input: { tenant, reason: 'from the dashboard', ...input } },
      (data) => data.tenantStateSet,
      done,
    );
  const paused = state?.triggerQueuePaused ?? false;
  const discarding = state?.triggerQueueDiscarding ?? false;
  return (
    <div className="tenant-controls">
      <button type="button" aria-expanded={enqueueOpen} onClick={() => setEnqueueOpen(!enqueueOpen)}>
        Enqueue…
      </button>
      <ActionButton
        label={paused ? 'Resume events' : 'Pause events'}
        run={() =>
          setState(
            { triggerQueuePaused: !paused, resultQueuePaused: !paused },
            paused ? 'Event queues resumed.' : 'Event queues paused.',
          )
        }
      />
      <ActionButton
        label={discarding ? 'Stop discarding' : 'Discard events'}
        run={() =>
          setState(
            { triggerQueueDiscarding: !discarding },
            discarding ? 'Trigger events are kept again.' : 'Trigger events are discarded.',
          )
        }
      />
      {enqueueOpen && <EnqueueForm tenant={tenant} />}
    </div>
  );
}

function EnqueueForm({ tenant }: { tenant: string }) {
  const [pipeline, setPipeline] = useState('');
  const [project, setProject] = useState('');
  const [change, setChange] = useState('');
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  return (
    <form
      className="inline-form"
      aria-label="Enqueue a change"
      onSubmit={(event) => {
        event.preventDefault();
        const isChange = /^\d+,\S+$/.test(change.trim());
        void runAction(
          EnqueueDocument,
          {
            input: isChange
              ? { tenant, pipeline, project, change: change.trim() }
              : { tenant, pipeline, project, ref: change.trim() },
          },
          (data) => data.enqueue,
          `${change} enqueued into ${pipeline}.`,
        ).then(setOutcome);
      }}
    >
      <label>
        Pipeline <input required value={pipeline} onChange={(e) => setPipeline(e.target.value)} />
      </label>
      <label>
        Project <input required value={project} onChange={(e) => setProject(e.target.value)} />
      </label>
      <label>
        Change or ref{' '}
        <input
          required
          value={change}
          onChange={(e) => setChange(e.target.value)}
          placeholder="12,1 or refs/heads/master"
        />
      </label>
      <button type="submit">Enqueue</button>
      <Outcome outcome={outcome} />
    </form>
  );
}
