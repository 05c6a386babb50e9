/** A button that runs an admin action and says how it went (a live region, so screen readers hear it). */
import { useState, type ReactNode } from 'react';
import type { ActionOutcome } from './run-action';

export function ActionButton({
  label,
  run,
  className,
  onDone,
}: {
  label: ReactNode;
  run: () => Promise<ActionOutcome>;
  className?: string;
  onDone?: (outcome: ActionOutcome) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  return (
    <span className="action">
      <button
        type="button"
        className={className}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void run().then((result) => {
            setBusy(false);
            setOutcome(result);
            onDone?.(result);
          });
        }}
      >
        {label}
      </button>
      <Outcome outcome={outcome} />
    </span>
  );
}

export function Outcome({ outcome }: { outcome: ActionOutcome | null }) {
  return (
    <span
      className={`outcome ${outcome === null ? '' : outcome.ok ? 'tone-good' : 'tone-bad'}`}
      role="status"
      aria-live="polite"
    >
      {outcome?.message ?? ''}
    </span>
  );
}
