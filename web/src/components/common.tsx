/** Small building blocks shared by the pages. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { RequestError } from '../api/client';
import { describeError } from '../api/errors';
import { refLabel, resultTone } from '../format';
import { tenantPath } from '../url';

export function ResultBadge({ result, status }: { result: string | null | undefined; status?: string | null }) {
  const label = result ?? status ?? 'PENDING';
  return <span className={`badge tone-${result ? resultTone(result) : 'info'}`}>{label.replace(/_/g, ' ')}</span>;
}

export function ErrorBox({ error, title }: { error: RequestError | Error | string; title?: string }) {
  const text = typeof error === 'string' ? error : describeError(error);
  return (
    <div className="error-box" role="alert">
      {title !== undefined && <strong>{title}: </strong>}
      {text}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-title">
      <h1>{children}</h1>
      {actions !== undefined && <div className="page-actions">{actions}</div>}
    </div>
  );
}

export interface RefLike {
  project: string;
  change?: number | null;
  patchset?: string | null;
  branch?: string | null;
  ref?: string | null;
  newrev?: string | null;
  refUrl?: string | null;
}

/** A ref with a link to its change page (and to the review system when it has a URL). */
export function RefLink({ tenant, value }: { tenant: string; value: RefLike }) {
  const label = refLabel(value);
  return (
    <span className="ref">
      {value.change !== null && value.change !== undefined ? (
        <Link href={tenantPath(tenant, `change/${value.change}`)}>{label}</Link>
      ) : (
        label
      )}
      {value.refUrl ? (
        <a
          className="external"
          href={value.refUrl}
          target="_blank"
          rel="noreferrer"
          aria-label={`${label} in the review system`}
        >
          ↗
        </a>
      ) : null}
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** A definition list of label/value pairs. */
export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="facts">
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
