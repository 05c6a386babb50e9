/**
 * Trigger, reporter and requirement options of a pipeline, per connection, validated and
 * compiled by the rules of the connection's driver (src/drivers/registry.ts;
 * docs/project-configuration.md#triggers-reporters-and-requirements). This module names no driver:
 * it hands each driver the configuration's readers, which throw the loader's configuration errors.
 */
import type { Driver, OptionMap, OptionReaders } from '../drivers/driver';
import { driverNamed } from '../drivers/registry';
import { ConfigObjectError, ErrorName } from './config-error';
import { compileRegex, readRegexList, warnDeprecatedRegexes } from './regex';
import { checkKeys, optBool, optStrList, requireMap, strList, toPlainData } from './schema-helpers';
import { isYamlMapping } from './yaml-source';

/** Resolve a trigger/reporter key to its driver (a connection, or a driver pipelines may name directly), or throw "Unknown Connection". */
export function driverFor(key: string, connections: Readonly<Record<string, string>>, attribute: string): string {
  const driver = connections[key] ?? (driverNamed(key)?.implicit === true ? key : undefined);
  if (driver === undefined) {
    throw new ConfigObjectError(`Unknown connection named "${key}".`, ErrorName.unknownConnection, attribute);
  }
  return driver;
}

function syntax(message: string, attribute: string): ConfigObjectError {
  return new ConfigObjectError(message, ErrorName.syntax, attribute);
}

/**
 * The configuration's readers for a driver's options under `attribute`; warnings (the reference's
 * deprecations, docs/project-configuration.md#config-errors) go to `warnings`.
 */
function readers(attribute: string, warnings: ConfigObjectError[]): OptionReaders {
  return {
    keys: (map, allowed, required, where) => checkKeys(map, new Set(allowed), required, where),
    bool: (map, key) => optBool(map, key),
    strings: (value, key) => strList(value, key),
    optStrings: (map, key) => optStrList(map, key),
    regexes: (value) => {
      const regexes = readRegexList(value, attribute);
      regexes.forEach((regex) => compileRegex(regex, attribute));
      warnDeprecatedRegexes(regexes, attribute, warnings);
    },
    deprecatedRegexes: (patterns) => warnDeprecatedRegexes(patterns, attribute, warnings),
    warn: (name, message) => warnings.push(new ConfigObjectError(message, name, attribute, 'warning')),
    fail: (message) => {
      throw syntax(message, attribute);
    },
  };
}

/** The rules of one kind a driver has, or a configuration error saying it has none. */
function rulesOf<K extends 'triggers' | 'reporters' | 'requirements'>(
  driver: string,
  kind: K,
  attribute: string,
  none: string,
): NonNullable<Driver[K]> {
  const rules = driverNamed(driver)?.[kind];
  if (rules === undefined) {
    throw syntax(`The ${driver} driver has no ${none}`, attribute);
  }
  return rules as NonNullable<Driver[K]>;
}

function filters(value: unknown, attribute: string): OptionMap[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (!isYamlMapping(entry)) {
      throw syntax(`expected a dictionary for dictionary value @ data['${attribute}']`, attribute);
    }
    return entry;
  });
}

/** Validate the trigger filters of one connection (warnings to `warnings`); returns them as plain data. */
export function validateTrigger(
  driver: string,
  value: unknown,
  attribute: string,
  warnings: ConfigObjectError[],
): Array<Record<string, unknown>> {
  const list = filters(value, attribute);
  const rules = rulesOf(driver, 'triggers', attribute, 'triggers');
  for (const filter of list) {
    rules.validate(filter, readers(attribute, warnings), attribute);
  }
  return list.map((filter) => toPlainData(filter) as Record<string, unknown>);
}

/** Validate a reporter's options for one connection (warnings to `warnings`). */
export function validateReporter(
  driver: string,
  value: unknown,
  attribute: string,
  warnings: ConfigObjectError[],
): Record<string, unknown> {
  const options = value === null || value === undefined ? {} : requireMap(value, attribute);
  const rules = rulesOf(driver, 'reporters', attribute, 'reporter');
  rules.validate(options, readers(attribute, warnings), attribute);
  return toPlainData(options) as Record<string, unknown>;
}

/** Validate pipeline `require`/`reject` options for one connection (warnings to `warnings`). */
export function validateRequirement(
  driver: string,
  value: unknown,
  attribute: string,
  warnings: ConfigObjectError[],
): Record<string, unknown> {
  const options = value === null || value === undefined ? {} : requireMap(value, attribute);
  const rules = rulesOf(driver, 'requirements', attribute, 'pipeline requirements');
  rules.validate(options, readers(attribute, warnings), attribute);
  return toPlainData(options) as Record<string, unknown>;
}

type CompiledTrigger = ReturnType<NonNullable<Driver['triggers']>['compile']>;
type CompiledReporter = ReturnType<NonNullable<Driver['reporters']>['compile']>;
type CompiledRequirement = ReturnType<NonNullable<Driver['requirements']>['compile']>;

/** The engine's form of a validated trigger filter (src/engine/layout-adapter.ts); null for a driver without triggers. */
export function compileTrigger(driver: string, filter: OptionMap, connection: string): CompiledTrigger | null {
  return driverNamed(driver)?.triggers?.compile(filter, connection) ?? null;
}

/** What the engine acts on of a validated reporter. */
export function compileReporter(driver: string, options: OptionMap): CompiledReporter {
  return driverNamed(driver)?.reporters?.compile(options) ?? {};
}

/** The engine's form of a validated `require` / `reject` entry (without its connection). */
export function compileRequirement(
  driver: string,
  options: OptionMap,
  mode: 'require' | 'reject',
): CompiledRequirement {
  return driverNamed(driver)?.requirements?.compile(options, mode) ?? {};
}
