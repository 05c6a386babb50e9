/**
 * Web links of refs (`ref_url` in build history, `url` of status refs): a connection's URL
 * templates (their syntax: src/model/ref-url-templates.ts), else a page of Sluice's own dashboard
 * (docs/configuration.md#ref-url-templates).
 */
import { nameFromCanonical, type ChangeInfo, type ChangeKind } from '../model/changes';
import { renderRefUrl, type RefUrlPlaceholder, type RefUrlTemplates } from '../model/ref-url-templates';
import { driverOf } from '../drivers/registry';
import type { Layout } from './layout';
import type { ServiceConfig } from './service';

/** What a link is made for: a change or ref of a project. */
export interface RefUrlInput {
  kind: ChangeKind;
  /** The project's name (`org/project`). */
  project: string;
  projectCanonical: string;
  ref: string;
  branch: string | null;
  number: number | null;
  patchset: string | null;
  newrev: string | null;
}

/** The placeholder values of a ref. */
function placeholderValues(baseurl: string | undefined, ref: RefUrlInput): Partial<Record<RefUrlPlaceholder, string>> {
  const values: Partial<Record<RefUrlPlaceholder, string>> = {
    'project.name': ref.project,
    'project.canonical_name': ref.projectCanonical,
    ref: ref.ref,
  };
  const set = (name: RefUrlPlaceholder, value: string | number | null | undefined): void => {
    if (value !== null && value !== undefined && value !== '') {
      values[name] = String(value);
    }
  };
  set('baseurl', baseurl?.replace(/\/+$/, ''));
  set('change.number', ref.number);
  set('change.patchset', ref.patchset);
  set('branch', ref.branch);
  set('sha', ref.newrev);
  return values;
}

/**
 * The dashboard page of a ref under `tenantRoot` (the tenant's web root, ending in `/`): the
 * change page for changes, else the buildsets of that ref (and revision).
 */
export function dashboardRefUrl(tenantRoot: string, ref: RefUrlInput): string {
  if (ref.kind === 'change' && ref.number !== null) {
    return `${tenantRoot}change/${ref.number}${ref.patchset === null ? '' : `,${ref.patchset}`}`;
  }
  const query = new URLSearchParams({ project: ref.project, ref: ref.ref });
  if (ref.newrev !== null) {
    query.set('newrev', ref.newrev);
  }
  return `${tenantRoot}buildsets?${query.toString()}`;
}

/**
 * The web link of a ref: the first of the connection's templates that applies to its kind and
 * renders, else the dashboard page under `tenantRoot`.
 */
export function refUrl(
  connection: (RefUrlTemplates & { baseurl?: string }) | undefined,
  tenantRoot: string,
  ref: RefUrlInput,
): string {
  const templates =
    ref.kind === 'change'
      ? [connection?.changeUrlTemplate]
      : ref.kind === 'branch'
        ? [connection?.branchUrlTemplate, connection?.gitwebUrlTemplate]
        : [connection?.gitwebUrlTemplate];
  const values = placeholderValues(connection?.baseurl, ref);
  for (const template of templates) {
    const rendered = template === undefined ? null : renderRefUrl(template, values);
    if (rendered !== null) {
      return rendered;
    }
  }
  return dashboardRefUrl(tenantRoot, ref);
}

/**
 * The web root of a tenant's dashboard pages (ending in `/`): the tenant's `web-root`, else
 * `/t/<tenant>/` under the service's public URL (relative when none is known).
 */
export function tenantWebRoot(tenant: string, webRoot: string | undefined, publicUrl: string | undefined): string {
  if (webRoot !== undefined) {
    return webRoot.endsWith('/') ? webRoot : `${webRoot}/`;
  }
  return `${(publicUrl ?? '').replace(/\/+$/, '')}/t/${encodeURIComponent(tenant)}/`;
}

/**
 * The web link of a change of a tenant in this deployment: its project's connection templates,
 * else the tenant's dashboard pages under `publicUrl()` (read per call: the address the service
 * listens on is known only once it listens).
 */
export function changeLinks(
  config: Pick<ServiceConfig, 'connections'>,
  layouts: (tenant: string) => Layout | undefined,
  publicUrl: () => string | undefined,
): (tenant: string, change: ChangeInfo) => string {
  return (tenant, change) => {
    const layout = layouts(tenant);
    const project = layout?.projects.get(change.project);
    const settings = project === undefined ? undefined : config.connections[project.connectionName];
    return refUrl(
      settings === undefined ? undefined : driverOf(settings)?.connection?.refUrls?.(settings),
      tenantWebRoot(tenant, layout?.tenant.webRoot, publicUrl()),
      {
        kind: change.kind,
        project: project?.name ?? nameFromCanonical(change.project),
        projectCanonical: change.project,
        ref: change.ref,
        branch: change.branch,
        number: change.number,
        patchset: change.patchset,
        newrev: change.newrev,
      },
    );
  };
}

/**
 * The issuer of OIDC tokens and discovery documents (docs/security.md#oidc-tokens): the tenant's
 * `web-root`, else the service's public URL, cut at `/t/` and without a trailing slash; empty
 * when neither is known.
 */
export function oidcIssuer(tenantWebRoot: string | undefined, publicUrl: string | undefined): string {
  return (tenantWebRoot ?? publicUrl ?? '').split('/t/')[0].replace(/\/+$/, '');
}
