/**
 * Small typed readers for configuration mappings. They throw ConfigObjectError with
 * voluptuous-style messages ("extra keys not allowed @ data['x']", "required key not provided"),
 * the error name `Unknown Configuration Error` and the offending attribute.
 */
import { ConfigObjectError, ErrorName } from './config-error';
import { EncryptedValue, isYamlMapping, OverrideControl } from './yaml-source';

export type ConfigMap = Record<string, unknown>;

function syntax(message: string, attribute?: string): ConfigObjectError {
  return new ConfigObjectError(message, ErrorName.syntax, attribute);
}

/** Require a mapping. */
export function requireMap(value: unknown, what: string): ConfigMap {
  if (!isYamlMapping(value)) {
    throw syntax(`expected a dictionary for ${what}`);
  }
  return value;
}

/** Reject unknown keys and require the listed ones. */
export function checkKeys(
  map: ConfigMap,
  allowed: ReadonlySet<string>,
  required: readonly string[] = [],
  where = 'data',
): void {
  for (const key of Object.keys(map)) {
    if (!allowed.has(key)) {
      throw syntax(`extra keys not allowed @ ${where}['${key}']`, key);
    }
  }
  for (const key of required) {
    if (map[key] === undefined || map[key] === null) {
      throw syntax(`required key not provided @ ${where}['${key}']`, key);
    }
  }
}

/** Strip an `!override`/`!inherit` wrapper, returning the mode when present. */
export function unwrapControl(value: unknown): { value: unknown; mode?: 'override' | 'inherit' } {
  if (value instanceof OverrideControl) {
    return { value: value.value, mode: value.mode };
  }
  return { value };
}

/** Reject `!override`/`!inherit` on attributes that do not support override control. */
export function noControl(map: ConfigMap, key: string): unknown {
  const value = map[key];
  if (value instanceof OverrideControl) {
    throw syntax(`The !${value.mode} tag is not supported on the "${key}" attribute`, key);
  }
  return value;
}

export function optString(map: ConfigMap, key: string): string | undefined {
  const value = noControl(map, key);
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'string') {
    throw syntax(`expected str for dictionary value @ data['${key}']`, key);
  }
  return value;
}

export function reqString(map: ConfigMap, key: string): string {
  const value = optString(map, key);
  if (value === undefined) {
    throw syntax(`required key not provided @ data['${key}']`, key);
  }
  return value;
}

export function optBool(map: ConfigMap, key: string): boolean | undefined {
  const value = noControl(map, key);
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'boolean') {
    throw syntax(`expected bool for dictionary value @ data['${key}']`, key);
  }
  return value;
}

export function optInt(map: ConfigMap, key: string, min?: number): number | undefined {
  const value = noControl(map, key);
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw syntax(`expected int for dictionary value @ data['${key}']`, key);
  }
  if (min !== undefined && value < min) {
    throw syntax(`value must be at least ${min} for dictionary value @ data['${key}']`, key);
  }
  return value;
}

/** A number in [min, max]; ints are numbers too. */
export function optNumber(map: ConfigMap, key: string, min: number, max: number): number | undefined {
  const value = noControl(map, key);
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw syntax(`expected float for dictionary value @ data['${key}']`, key);
  }
  if (value < min || value > max) {
    throw syntax(`value must be between ${min} and ${max} for dictionary value @ data['${key}']`, key);
  }
  return value;
}

export function optEnum<T extends string>(map: ConfigMap, key: string, allowed: readonly T[]): T | undefined {
  const value = optString(map, key);
  if (value === undefined) {
    return undefined;
  }
  if (!(allowed as readonly string[]).includes(value)) {
    throw syntax(
      `value must be one of ${allowed.map((a) => `'${a}'`).join(', ')} for dictionary value @ data['${key}']`,
      key,
    );
  }
  return value as T;
}

/** A string or list of strings (the reference's `to_list(str)`). */
export function strList(value: unknown, key: string): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  for (const entry of list) {
    if (typeof entry !== 'string') {
      throw syntax(`expected str for dictionary value @ data['${key}']`, key);
    }
  }
  return list as string[];
}

export function optStrList(map: ConfigMap, key: string): string[] | undefined {
  const value = noControl(map, key);
  return value === undefined || value === null ? undefined : strList(value, key);
}

/** A plain mapping (vars-like); encrypted values are allowed inside. */
export function optMap(map: ConfigMap, key: string): ConfigMap | undefined {
  const value = noControl(map, key);
  if (value === undefined || value === null) {
    return undefined;
  }
  if (!isYamlMapping(value)) {
    throw syntax(`expected a dictionary for dictionary value @ data['${key}']`, key);
  }
  return value;
}

/** Convert reader values (wrappers included) into JSON-safe data. */
export function toPlainData(value: unknown): unknown {
  if (value instanceof EncryptedValue) {
    return { encrypted: 'pkcs1-oaep', chunks: [...value.chunks] };
  }
  if (value instanceof OverrideControl) {
    return toPlainData(value.value);
  }
  if (Array.isArray(value)) {
    return value.map(toPlainData);
  }
  if (isYamlMapping(value)) {
    const out: ConfigMap = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = toPlainData(v);
    }
    return out;
  }
  return value;
}

/** A list of entries that are each a string or a single-key map, returned as [name, options]. */
export function namedEntries(value: unknown, key: string): Array<[string, ConfigMap]> {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry): [string, ConfigMap] => {
    if (typeof entry === 'string') {
      return [entry, {}];
    }
    if (isYamlMapping(entry) && Object.keys(entry).length === 1) {
      const [name] = Object.keys(entry);
      const options = entry[name];
      if (options === null || options === undefined) {
        return [name, {}];
      }
      if (!isYamlMapping(options)) {
        throw syntax(`expected a dictionary for dictionary value @ data['${key}']['${name}']`, key);
      }
      return [name, options];
    }
    throw syntax(`expected str or a single-key dictionary for dictionary value @ data['${key}']`, key);
  });
}
