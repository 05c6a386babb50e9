/**
 * Who may read and administer a tenant, from the tenant file's newer and older forms
 * (docs/project-configuration.md#the-tenant-file, docs/security.md#who-may-do-what-rules):
 * `role` items, a tenant's `role-mappings` and `anonymous-read-access`, or its `access-rules` and
 * `admin-rules`. Sluice's authorization knows two rights, read and admin, so mappings are reduced
 * to those: a rule mapped to the built-in `admin` role is an admin rule; a rule mapped to `read`,
 * `admin` or a role granting `read` may read. Other permissions of user-defined roles grant
 * nothing (they fail closed).
 */
import { ConfigObjectError, ErrorName } from './config-error';
import { checkKeys, optMap, requireMap, reqString, strList, type ConfigMap } from './schema-helpers';
import { isYamlMapping } from './yaml-source';

/** A `role` item of the tenant file. */
export interface Role {
  name: string;
  /** Permission name -> `true`, `false` or `{conditions: {project, ref}}` (enqueue, dequeue). */
  permissions: Record<string, boolean | { conditions: Record<string, string> }>;
}

const BUILTIN_ROLES = new Set(['admin', 'read']);
const BOOLEAN_PERMISSIONS = new Set([
  'read',
  'promote',
  'set-tenant-state',
  'build-image',
  'upload-image',
  'delete-image-build-artifact',
  'delete-image-upload',
  'validate-image-upload',
  'modify-node',
  'modify-nodeset-request',
  'autohold',
]);
const CONDITIONAL_PERMISSIONS = new Set(['enqueue', 'dequeue']);

/** Parse a `role` item. */
export function parseRole(body: unknown): Role {
  const map = requireMap(body, 'role');
  checkKeys(map, new Set(['name', 'permissions']), ['name']);
  const name = reqString(map, 'name');
  if (BUILTIN_ROLES.has(name)) {
    throw new ConfigObjectError(`The role "${name}" is built in and may not be redefined`, ErrorName.syntax, 'name');
  }
  const permissions: Role['permissions'] = {};
  for (const [key, value] of Object.entries(optMap(map, 'permissions') ?? {})) {
    permissions[key] = readPermission(key, value);
  }
  return { name, permissions };
}

function readPermission(key: string, value: unknown): Role['permissions'][string] {
  if (!BOOLEAN_PERMISSIONS.has(key) && !CONDITIONAL_PERMISSIONS.has(key)) {
    throw new ConfigObjectError(
      `extra keys not allowed @ data['permissions']['${key}']`,
      ErrorName.syntax,
      'permissions',
    );
  }
  if (typeof value === 'boolean') {
    return value;
  }
  if (CONDITIONAL_PERMISSIONS.has(key) && isYamlMapping(value)) {
    checkKeys(value, new Set(['conditions']), ['conditions'], `data['permissions']['${key}']`);
    const conditions = requireMap(value.conditions, `permissions ${key} conditions`);
    checkKeys(conditions, new Set(['project', 'ref']), [], `data['permissions']['${key}']['conditions']`);
    return { conditions: Object.fromEntries(Object.entries(conditions).map(([k, v]) => [k, String(v)])) };
  }
  throw new ConfigObjectError(
    `expected bool for dictionary value @ data['permissions']['${key}']`,
    ErrorName.syntax,
    'permissions',
  );
}

/** A tenant's `role-mappings`: authorization-rule name -> role names. */
export function readRoleMappings(map: ConfigMap): Record<string, string[]> | undefined {
  const raw = optMap(map, 'role-mappings');
  if (raw === undefined) {
    return undefined;
  }
  return Object.fromEntries(Object.entries(raw).map(([rule, roles]) => [rule, strList(roles, 'role-mappings')]));
}

/** What the authorization layer enforces for one tenant. */
export interface EffectiveAccess {
  accessRules: string[];
  adminRules: string[];
  /** Reading needs a matching access rule or admin even when `accessRules` is empty. */
  readRestricted: boolean;
}

/**
 * The rights a tenant grants. With `role-mappings` its `access-rules` and `admin-rules` are
 * disregarded, as in the reference; `unknownRole` is called for a mapped role no `role` defines.
 */
export function effectiveAccess(
  tenant: {
    accessRules: readonly string[];
    adminRules: readonly string[];
    anonymousReadAccess: boolean;
    roleMappings?: Readonly<Record<string, readonly string[]>>;
  },
  roles: ReadonlyMap<string, Role>,
  unknownRole: (role: string) => void,
): EffectiveAccess {
  if (tenant.roleMappings === undefined) {
    return {
      accessRules: [...tenant.accessRules],
      adminRules: [...tenant.adminRules],
      readRestricted: !tenant.anonymousReadAccess || tenant.accessRules.length > 0,
    };
  }
  const adminRules: string[] = [];
  const accessRules: string[] = [];
  for (const [rule, names] of Object.entries(tenant.roleMappings)) {
    let admin = false;
    let read = false;
    for (const name of names) {
      const role = roles.get(name);
      if (!BUILTIN_ROLES.has(name) && role === undefined) {
        unknownRole(name);
      }
      admin = admin || name === 'admin';
      read = read || name === 'admin' || name === 'read' || role?.permissions.read === true;
    }
    if (admin) {
      adminRules.push(rule);
    }
    if (read) {
      accessRules.push(rule);
    }
  }
  return {
    accessRules: tenant.anonymousReadAccess ? [] : accessRules,
    adminRules,
    readRestricted: !tenant.anonymousReadAccess,
  };
}
