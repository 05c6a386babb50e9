/** Tenant admin controls on the status page: enqueue a change, pause, resume or discard the event queues. */
import { useState } from 'react';
import { ActionButton, Outcome } from './action-button';
import { runAction, type ActionOutcome } from './run-action';
import { useIsAdmin } from './use-admin';
import { useSubscription } from '../api/hooks';
import { describeError } from '../api/errors';
import { EnqueueDocument, ManagementEventOutcomeDocument, TenantStateSetDocument } from '../generated/graphql';
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

/** An enqueue the server accepted, waiting for what the scheduler makes of it. */
interface PendingEnqueue {
  eventId: number;
  change: string;
  pipeline: string;
}

/**
 * Enqueue a change or ref. The mutation answers once the request is queued; the form then follows
 * `managementEventOutcome` and says what the scheduler really did (enqueued, or why not: an
 * unknown change, a refusal...).
 */
function EnqueueForm({ tenant }: { tenant: string }) {
  const [pipeline, setPipeline] = useState('');
  const [project, setProject] = useState('');
  const [change, setChange] = useState('');
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const [pending, setPending] = useState<PendingEnqueue | null>(null);
  useSubscription(
    ManagementEventOutcomeDocument,
    { tenant, eventId: pending?.eventId ?? 0 },
    (data) => {
      if (pending === null) {
        return;
      }
      const result = data.managementEventOutcome;
      setPending(null);
      setOutcome(
        result.succeeded
          ? { ok: true, message: `${pending.change} enqueued into ${pending.pipeline}.` }
          : {
              ok: false,
              message: `${pending.change} was not enqueued into ${pending.pipeline}: ${result.outcome.replace(/^error:\s*/, '')}.`,
            },
      );
    },
    {
      skip: pending === null,
      onError: (error) => {
        setPending(null);
        setOutcome({
          ok: false,
          message: `The enqueue was queued, but its outcome is unknown: ${describeError(error)}`,
        });
      },
    },
  );
  return (
    <form
      className="inline-form"
      aria-label="Enqueue a change"
      onSubmit={(event) => {
        event.preventDefault();
        const target = change.trim();
        const isChange = /^\d+,\S+$/.test(target);
        setPending(null);
        setOutcome({ ok: true, message: 'Sending…' });
        void runAction(
          EnqueueDocument,
          {
            input: isChange
              ? { tenant, pipeline, project, change: target }
              : { tenant, pipeline, project, ref: target },
          },
          (data) => data.enqueue,
          `Enqueue of ${target} into ${pipeline} requested; waiting for the scheduler…`,
        ).then((result) => {
          setOutcome(result);
          if (result.ok && result.eventId !== undefined) {
            setPending({ eventId: result.eventId, change: target, pipeline });
          }
        });
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
      <button type="submit" disabled={pending !== null}>
        Enqueue
      </button>
      <Outcome outcome={outcome} />
    </form>
  );
}
