/**
 * Smart reconfiguration (`sluice reconfigure --smart`, as the reference's `smart-reconfigure`):
 * after the tenant file is read again, only the tenants whose entry changed are reloaded, with
 * new tenants loaded and removed ones dropped (docs/project-configuration.md#reconfiguration).
 */
import type { Abide, TenantFileProblem } from './tenant-file';

/**
 * What a tenant's layout depends on in the tenant file, as text: its parsed entry (roles and
 * rules applied) without line numbers, its problems' messages and the global semaphores it uses.
 * Equal texts: the entry did not change, though it may have moved in the file.
 */
export function tenantFingerprints(abide: Abide, problems: readonly TenantFileProblem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const tenant of abide.tenants) {
    const semaphores = tenant.semaphores.map((name) => abide.globalSemaphores.get(name) ?? null);
    const messages = problems.filter((p) => p.tenant === tenant.name).map((p) => p.message);
    out.set(tenant.name, JSON.stringify([tenant, semaphores, messages], fingerprintValue));
  }
  return out;
}

function fingerprintValue(this: unknown, key: string, value: unknown): unknown {
  if (key === 'line') {
    return undefined;
  }
  if (value instanceof Map) {
    return { map: [...value.entries()] };
  }
  if (value instanceof Set) {
    return { set: [...value.values()] };
  }
  if (value instanceof RegExp) {
    return { regex: value.source, flags: value.flags };
  }
  return value;
}

/** The tenants of `next` that are new or whose fingerprint differs from `previous`. */
export function changedTenants(previous: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>): string[] {
  return [...next].filter(([name, print]) => previous.get(name) !== print).map(([name]) => name);
}
