/** Create an autohold request for a job (tenant admins only). */
import { useState } from 'react';
import { Outcome } from './action-button';
import { runAction, type ActionOutcome } from './run-action';
import { useIsAdmin } from './use-admin';
import { AutoholdCreateDocument } from '../generated/graphql';

export function AutoholdForm({
  tenant,
  project,
  job,
  change,
}: {
  tenant: string;
  project: string;
  job: string;
  change?: number | null;
}) {
  const admin = useIsAdmin(tenant);
  const [reason, setReason] = useState('');
  const [count, setCount] = useState('1');
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  if (!admin) {
    return null;
  }
  return (
    <form
      className="inline-form"
      aria-label="Create an autohold"
      onSubmit={(event) => {
        event.preventDefault();
        void runAction(
          AutoholdCreateDocument,
          {
            input: {
              tenant,
              project,
              job,
              reason,
              count: Number.parseInt(count, 10),
              change: change === null || change === undefined ? undefined : String(change),
            },
          },
          (data) => data.autoholdCreate,
          'Autohold request created.',
        ).then(setOutcome);
      }}
    >
      <h2>Autohold</h2>
      <label>
        Reason <input required value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <label>
        Count <input type="number" min={1} value={count} onChange={(e) => setCount(e.target.value)} />
      </label>
      <button type="submit">Hold the next failing {job}</button>
      <Outcome outcome={outcome} />
    </form>
  );
}
