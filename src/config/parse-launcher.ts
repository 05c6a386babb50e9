/**
 * Launcher objects: `image`, `flavor`, `label`, `section`, `provider` (docs/project-configuration.md#launcher-objects).
 */
import { ConfigObjectError, ErrorName } from './config-error';
import type { Flavor, Image, Label, Section } from './layout';
import type { ParseContext } from './parse-context';
import { checkKeys, optBool, optEnum, optInt, optString, requireMap, reqString, toPlainData } from './schema-helpers';

/** `urlquote(project canonical name)/urlquote(name)`. */
export function launcherCanonicalName(projectCanonicalName: string, name: string): string {
  return `${encodeURIComponent(projectCanonicalName)}/${encodeURIComponent(name)}`;
}

export function parseImage(body: unknown, ctx: ParseContext): Image {
  const map = requireMap(body, 'image');
  checkKeys(map, new Set(['name', 'type', 'description']), ['name', 'type']);
  const name = reqString(map, 'name');
  const type = optEnum(map, 'type', ['zuul', 'cloud'] as const);
  if (type === undefined) {
    throw new ConfigObjectError(`required key not provided @ data['type']`, ErrorName.syntax, 'type');
  }
  return {
    name,
    type,
    description: optString(map, 'description'),
    canonicalName: launcherCanonicalName(ctx.sourceContext.projectCanonicalName, name),
    sourceContext: ctx.sourceContext,
  };
}

export function parseFlavor(body: unknown, ctx: ParseContext): Flavor {
  const map = requireMap(body, 'flavor');
  checkKeys(map, new Set(['name', 'description']), ['name']);
  const name = reqString(map, 'name');
  return {
    name,
    description: optString(map, 'description'),
    canonicalName: launcherCanonicalName(ctx.sourceContext.projectCanonicalName, name),
    sourceContext: ctx.sourceContext,
  };
}

export function parseLabel(body: unknown, ctx: ParseContext): Label {
  const map = requireMap(body, 'label');
  checkKeys(map, new Set(['name', 'image', 'flavor', 'description', 'min-ready', 'max-ready-age']), [
    'name',
    'image',
    'flavor',
  ]);
  const name = reqString(map, 'name');
  return {
    name,
    image: reqString(map, 'image'),
    flavor: reqString(map, 'flavor'),
    description: optString(map, 'description'),
    minReady: optInt(map, 'min-ready', 0),
    maxReadyAge: optInt(map, 'max-ready-age', 0),
    canonicalName: launcherCanonicalName(ctx.sourceContext.projectCanonicalName, name),
    sourceContext: ctx.sourceContext,
  };
}

function checkEntryList(map: Record<string, unknown>, key: string): void {
  const value = map[key];
  if (value === undefined || value === null) {
    return;
  }
  if (!Array.isArray(value)) {
    throw new ConfigObjectError(`expected a list for dictionary value @ data['${key}']`, ErrorName.syntax, key);
  }
  for (const entry of value) {
    if (typeof entry === 'string') {
      continue;
    }
    const m = requireMap(entry, key);
    if (typeof m.name !== 'string') {
      throw new ConfigObjectError(`required key not provided @ data['${key}']['name']`, ErrorName.syntax, key);
    }
  }
}

/** Sections keep their extra (driver-specific) keys. */
export function parseSection(body: unknown, ctx: ParseContext): Section {
  const map = requireMap(body, 'section');
  const name = reqString(map, 'name');
  optString(map, 'parent');
  optBool(map, 'abstract');
  optString(map, 'connection');
  optString(map, 'description');
  for (const key of ['images', 'flavors', 'labels']) {
    checkEntryList(map, key);
  }
  const connection = optString(map, 'connection');
  if (connection !== undefined && !(connection in ctx.connections)) {
    throw new ConfigObjectError(`Unknown connection named "${connection}".`, ErrorName.unknownConnection, 'connection');
  }
  return {
    name,
    canonicalName: launcherCanonicalName(ctx.sourceContext.projectCanonicalName, name),
    parent: optString(map, 'parent'),
    abstract: optBool(map, 'abstract') ?? false,
    connection,
    config: toPlainData(map) as Record<string, unknown>,
    sourceContext: ctx.sourceContext,
  };
}

/** A provider as written; flattening with its sections happens once the layout is complete. */
export interface ProviderDefinition {
  name: string;
  section: string;
  config: Record<string, unknown>;
  sourceContext: ParseContext['sourceContext'];
}

export function parseProvider(body: unknown, ctx: ParseContext): ProviderDefinition {
  const map = requireMap(body, 'provider');
  if ('flavor' in map || 'flavors' in map) {
    throw new ConfigObjectError(
      'Flavor configuration not permitted in Provider, only Section',
      ErrorName.unknown,
      'flavors' in map ? 'flavors' : 'flavor',
    );
  }
  checkKeys(map, new Set(Object.keys(map)), ['name', 'section']);
  for (const key of ['images', 'labels']) {
    checkEntryList(map, key);
  }
  return {
    name: reqString(map, 'name'),
    section: reqString(map, 'section'),
    config: toPlainData(map) as Record<string, unknown>,
    sourceContext: ctx.sourceContext,
  };
}
