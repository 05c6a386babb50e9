/** Whether the signed-in user administers a tenant: asked once per tenant and token, shared by every control. */
import { useSyncExternalStore } from 'react';
import { request } from '../api/client';
import { currentToken, onTokenChange } from '../api/auth';
import { TenantAccessDocument } from '../generated/graphql';

const answers = new Map<string, boolean>();
const pending = new Set<string>();
const listeners = new Set<() => void>();

onTokenChange(() => {
  answers.clear();
  listeners.forEach((l) => l());
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function ask(tenant: string, key: string): void {
  if (pending.has(key)) {
    return;
  }
  pending.add(key);
  request(TenantAccessDocument, { tenant })
    .then(
      (data) => data.authorizations.__typename === 'Authorizations' && data.authorizations.admin,
      () => false,
    )
    .then((admin) => {
      pending.delete(key);
      answers.set(key, admin);
      listeners.forEach((l) => l());
    });
}

export function useIsAdmin(tenant: string): boolean {
  const token = useSyncExternalStore(onTokenChange, currentToken);
  const key = `${tenant}\n${token ?? ''}`;
  const admin = useSyncExternalStore(subscribe, () => answers.get(key));
  if (token === null) {
    return false;
  }
  if (admin === undefined) {
    ask(tenant, key);
    return false;
  }
  return admin;
}
