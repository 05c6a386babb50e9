/**
 * The roles a `sluice serve` process runs (docs/operations.md#roles): `api` (HTTP, GraphQL,
 * REST, WebSockets, dashboard, build logs), `scheduler` (tenant schedulers under leadership,
 * merges, git pollers), `executor` (the build worker) and `launcher` (the node provider loop).
 * Every process runs all four unless `--roles` or the `roles` configuration key says otherwise.
 */

export const ROLE_NAMES = ['api', 'scheduler', 'executor', 'launcher'] as const;

export type RoleName = (typeof ROLE_NAMES)[number];

/** Which roles this process runs. */
export type RoleSet = ReadonlySet<RoleName>;

export const ALL_ROLES: RoleSet = new Set(ROLE_NAMES);

export function isRoleName(name: string): name is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(name);
}

/** A `--roles` value that names no role, an unknown one, or one twice. */
export class RoleListError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RoleListError';
  }
}

/** Parse a comma-separated role list (`api,scheduler`); spaces around names are allowed. */
export function parseRoleList(text: string): RoleSet {
  const names = text.split(',').map((name) => name.trim());
  if (names.every((name) => name === '')) {
    throw new RoleListError(`no role given; roles are ${ROLE_NAMES.join(', ')}`);
  }
  const roles = new Set<RoleName>();
  for (const name of names) {
    if (!isRoleName(name)) {
      throw new RoleListError(`unknown role "${name}"; roles are ${ROLE_NAMES.join(', ')}`);
    }
    if (roles.has(name)) {
      throw new RoleListError(`role "${name}" is named twice`);
    }
    roles.add(name);
  }
  return roles;
}

/** The roles in their canonical order, for logs and the banner (`api,executor`). */
export function describeRoles(roles: RoleSet): string {
  return ROLE_NAMES.filter((name) => roles.has(name)).join(',');
}
