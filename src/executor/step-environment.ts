/**
 * The environment of job steps. Steps never inherit Sluice's own environment (database URL,
 * credentials): they get an allow-list of host variables, `HOME` set to the build's workspace,
 * the documented `SLUICE_*` variables and the job's variables flattened as `SLUICE_VAR_*`
 * (docs/executor.md, "Environment").
 */
import { isPlainObject } from '../model/value-checks';

/** Host variables a step may see; everything else of the executor's environment is dropped. */
export const HOST_ENVIRONMENT_ALLOW_LIST = ['PATH', 'LANG', 'LC_ALL', 'TZ'] as const;

/** Pick the allowed host variables out of an environment (normally the executor's own). */
export function allowedHostEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of HOST_ENVIRONMENT_ALLOW_LIST) {
    const value = env[name];
    if (value !== undefined) {
      picked[name] = value;
    }
  }
  picked.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  picked.LANG ??= 'C.UTF-8';
  return picked;
}

export class InvalidVariableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidVariableError';
  }
}

const TOP_LEVEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NESTED_KEY = /^[A-Za-z0-9_]+$/;
export const VARIABLE_PREFIX = 'SLUICE_VAR_';

export interface FlattenedVariables {
  variables: Record<string, string>;
  /** Nested keys that cannot be part of a variable name (they stay in the vars file). */
  skipped: string[];
}

/**
 * Flatten job variables into environment variables:
 * - a top-level name must match `[A-Za-z_][A-Za-z0-9_]*` (otherwise `InvalidVariableError`);
 * - nested mappings and lists join their path with `__` (`db: {host: x}` -> `SLUICE_VAR_db__host`,
 *   `hosts: [a, b]` -> `SLUICE_VAR_hosts__0`, `SLUICE_VAR_hosts__1`), and a mapping or list is
 *   also exported whole as JSON under its own name;
 * - strings are exported as they are, numbers and booleans in their JSON form, null as "";
 * - a nested key with characters outside `[A-Za-z0-9_]` is not exported (listed in `skipped`);
 * - a value containing a NUL character cannot be exported (`InvalidVariableError`).
 */
export function flattenVariables(vars: Record<string, unknown>): FlattenedVariables {
  const variables: Record<string, string> = {};
  const skipped: string[] = [];
  const visit = (name: string, display: string, value: unknown): void => {
    if (value !== null && typeof value === 'object') {
      variables[name] = JSON.stringify(value);
      const entries = Array.isArray(value)
        ? value.map((v, i) => [String(i), v] as const)
        : Object.entries(value as Record<string, unknown>);
      for (const [key, child] of entries) {
        if (!NESTED_KEY.test(key)) {
          skipped.push(`${display}.${key}`);
          continue;
        }
        visit(`${name}__${key}`, `${display}.${key}`, child);
      }
      return;
    }
    const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    if (text.includes('\u0000')) {
      throw new InvalidVariableError(`Variable ${display} contains a NUL character`);
    }
    variables[name] = text;
  };
  for (const [key, value] of Object.entries(vars)) {
    if (!TOP_LEVEL_NAME.test(key)) {
      throw new InvalidVariableError(`Invalid variable name "${key}": names must match [A-Za-z_][A-Za-z0-9_]*`);
    }
    visit(`${VARIABLE_PREFIX}${key}`, key, value);
  }
  return { variables, skipped };
}

/**
 * The variables a job sees: `vars`, then data returned by parent jobs, then `extra-vars`;
 * later sources win and mappings are merged recursively.
 */
export function mergeVariables(...sources: Record<string, unknown>[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const source of sources) {
    deepMergeInto(result, source);
  }
  return result;
}

function deepMergeInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isPlainObject(existing) && isPlainObject(value)) {
      const merged: Record<string, unknown> = { ...existing };
      deepMergeInto(merged, value);
      target[key] = merged;
    } else {
      target[key] = value;
    }
  }
}
