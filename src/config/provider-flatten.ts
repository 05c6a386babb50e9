/**
 * Provider flattening (docs/project-configuration.md#launcher-objects): a provider's map is merged over its section
 * chain (nested maps merge, lists concatenate parent first, scalars of the more specific level win),
 * then each image/flavor/label entry is completed from the layout object and hashed.
 */
import { createHash } from 'node:crypto';
import { ConfigObjectError, ErrorName } from './config-error';
import type { Flavor, Image, Label, Provider, Section } from './layout';
import type { ProviderDefinition } from './parse-launcher';
import { launcherCanonicalName } from './parse-launcher';
import { isYamlMapping } from './yaml-source';

type Entry = Record<string, unknown> & { name: string };

function mergeUnder(specific: Record<string, unknown>, general: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...general };
  for (const [k, v] of Object.entries(specific)) {
    const g = general[k];
    if (isYamlMapping(v) && isYamlMapping(g)) {
      out[k] = mergeUnder(v, g);
    } else if (Array.isArray(v) && Array.isArray(g)) {
      out[k] = [...g, ...v];
    } else {
      out[k] = v;
    }
  }
  return out;
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(sortedJson).join(',')}]`;
  }
  if (isYamlMapping(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function xor(a: Buffer, b: Buffer): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) {
    out[i] = a[i] ^ b[i];
  }
  return out;
}

function entries(value: unknown): Entry[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.map((e) => (typeof e === 'string' ? { name: e } : ({ ...(e as Record<string, unknown>) } as Entry)));
}

export interface LauncherObjects {
  sections: ReadonlyMap<string, Section>;
  images: ReadonlyMap<string, Image>;
  flavors: ReadonlyMap<string, Flavor>;
  labels: ReadonlyMap<string, Label>;
}

/** Flatten one provider; throws ConfigObjectError for a broken section chain or unknown references. */
export function flattenProvider(def: ProviderDefinition, objects: LauncherObjects): Provider {
  let config: Record<string, unknown> = { ...def.config };
  const chain: string[] = [];
  let sectionName: string | undefined = def.section;
  const seen = new Set<string>();
  // The provider may use another project's section; a section's parent must be in that section's project.
  let previous: Section | undefined;
  while (sectionName !== undefined) {
    if (seen.has(sectionName)) {
      throw new ConfigObjectError(`Section cycle detected at "${sectionName}"`, ErrorName.unknown, 'section');
    }
    seen.add(sectionName);
    const section = objects.sections.get(sectionName);
    if (section === undefined) {
      throw new ConfigObjectError(`The section "${sectionName}" was not found`, ErrorName.unknown, 'section');
    }
    if (
      previous !== undefined &&
      section.sourceContext.projectCanonicalName !== previous.sourceContext.projectCanonicalName
    ) {
      throw new ConfigObjectError(
        `The section "${previous.name}" references a section in a different project.`,
        ErrorName.unknown,
        'section',
      );
    }
    previous = section;
    chain.push(sectionName);
    const sectionMap: Record<string, unknown> = { ...section.config };
    delete sectionMap.name;
    delete sectionMap.parent;
    delete sectionMap.abstract;
    config = mergeUnder(config, sectionMap);
    sectionName = section.parent;
  }
  const images = entries(config.images).map((entry) => {
    const image = objects.images.get(entry.name);
    if (image === undefined) {
      throw new ConfigObjectError(
        `The provider "${def.name}" references an unknown image "${entry.name}"`,
        ErrorName.unknown,
        'images',
      );
    }
    const filled: Entry = {
      type: image.type,
      description: image.description ?? null,
      branch: image.sourceContext.branch,
      project_canonical_name: image.sourceContext.projectCanonicalName,
      ...entry,
    };
    return { ...filled, config_hash: sha256(sortedJson(filled)).toString('hex') };
  });
  const flavors = entries(config.flavors).map((entry) => {
    const flavor = objects.flavors.get(entry.name);
    if (flavor === undefined) {
      throw new ConfigObjectError(
        `The provider "${def.name}" references an unknown flavor "${entry.name}"`,
        ErrorName.unknown,
        'flavors',
      );
    }
    const filled: Entry = {
      description: flavor.description ?? null,
      branch: flavor.sourceContext.branch,
      project_canonical_name: flavor.sourceContext.projectCanonicalName,
      ...entry,
    };
    return { ...filled, config_hash: sha256(sortedJson(filled)).toString('hex') };
  });
  const labels = entries(config.labels).map((entry) => {
    const label = objects.labels.get(entry.name);
    if (label === undefined) {
      throw new ConfigObjectError(
        `The provider "${def.name}" references an unknown label "${entry.name}"`,
        ErrorName.unknown,
        'labels',
      );
    }
    const filled: Entry = {
      image: label.image,
      flavor: label.flavor,
      description: label.description ?? null,
      'min-ready': label.minReady ?? 0,
      'max-ready-age': label.maxReadyAge ?? 0,
      ...entry,
    };
    const imageHash = images.find((i) => i.name === filled.image)?.config_hash;
    const flavorHash = flavors.find((f) => f.name === filled.flavor)?.config_hash;
    let hash = sha256(sortedJson(filled));
    if (imageHash !== undefined) {
      hash = xor(hash, Buffer.from(imageHash, 'hex'));
    }
    if (flavorHash !== undefined) {
      hash = xor(hash, Buffer.from(flavorHash, 'hex'));
    }
    return { ...filled, config_hash: hash.toString('hex') };
  });
  const connection = typeof config.connection === 'string' ? config.connection : undefined;
  return {
    name: def.name,
    canonicalName: launcherCanonicalName(def.sourceContext.projectCanonicalName, def.name),
    section: def.section,
    connection,
    sectionChain: chain,
    config: { ...config, images, flavors, labels },
    images,
    flavors,
    labels,
    sourceContext: def.sourceContext,
  };
}

/** Image file format a provider wants for one of its images: `image-format` of the image entry, else of the provider (default `tar`). */
export function providerImageFormat(provider: Pick<Provider, 'config'>, image: Record<string, unknown>): string {
  const format = image['image-format'] ?? provider.config['image-format'];
  return typeof format === 'string' && format !== '' ? format : 'tar';
}
