/** Unwraps `tenant(name)` results: the Tenant, or an error box, or a loading line. */
import type { ReactNode } from 'react';
import type { RequestError } from '../api/client';
import { ErrorBox, Loading } from './common';

type TenantUnion = { __typename: string; message?: string };

export function TenantData<U extends TenantUnion>({
  data,
  error,
  what,
  children,
}: {
  data: { tenant?: U | null } | undefined;
  error: RequestError | undefined;
  what: string;
  children: (tenant: Extract<U, { __typename: 'Tenant' }>) => ReactNode;
}) {
  if (error !== undefined) {
    return <ErrorBox error={error} />;
  }
  if (data === undefined) {
    return <Loading what={what} />;
  }
  const tenant = data.tenant;
  if (tenant === undefined || tenant === null || tenant.__typename !== 'Tenant') {
    return <ErrorBox error={tenant?.message ?? 'Tenant not found'} />;
  }
  return <>{children(tenant as Extract<U, { __typename: 'Tenant' }>)}</>;
}
