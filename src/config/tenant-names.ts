/**
 * Tenant names read straight from the tenant file. Used until the full configuration loader
 * (LayoutManager) is wired in; it only lists names, it validates nothing else.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export function readTenantNames(file: string | undefined): string[] {
  if (file === undefined) {
    return [];
  }
  const doc: unknown = parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(doc)) {
    return [];
  }
  const names: string[] = [];
  for (const item of doc) {
    const tenant = (item as { tenant?: { name?: unknown } } | null)?.tenant;
    if (typeof tenant?.name === 'string') {
      names.push(tenant.name);
    }
  }
  return names;
}
