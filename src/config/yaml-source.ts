/**
 * Reads configuration YAML the way the reference does (engine.md §1.1): a list of single-key
 * items, duplicate keys rejected, `<<` merge keys allowed, and the custom tags `!override`,
 * `!inherit` and `!encrypted/pkcs1-oaep` kept as typed wrapper values. Each item carries its
 * mark (lines and text) and each mapping the lines of its keys, for error messages.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node as YamlNode,
} from 'yaml';
import type { SourceMark } from './config-error';
import { isPlainObject } from '../model/value-checks';

/** A value written with `!override` or `!inherit`. */
export class OverrideControl {
  constructor(
    readonly mode: 'override' | 'inherit',
    readonly value: unknown,
  ) {}
}

/** An `!encrypted/pkcs1-oaep` value: one or more base64 ciphertext chunks, kept encrypted. */
export class EncryptedValue {
  constructor(readonly chunks: readonly string[]) {}
}

/** One `- <key>: <body>` item of a configuration file. */
export interface ConfigItem {
  key: string;
  body: unknown;
  mark: SourceMark;
}

export interface ParsedConfigFile {
  items: ConfigItem[];
  /** A file-level problem (not a list, YAML syntax error, ...); items is then empty or partial. */
  problems: Array<{ message: string; line?: number; mark?: SourceMark }>;
}

/**
 * Offsets of the keys of every mapping produced by the reader; turned into line numbers only
 * when an error needs one (most objects never do).
 */
const keyOffsetTable = new WeakMap<object, { counter: LineCounter; offsets: Map<string, number> }>();

/** The 1-based line of `key` inside `map`, when the map came from a configuration file. */
export function keyLine(map: unknown, key: string): number | undefined {
  const entry = typeof map === 'object' && map !== null ? keyOffsetTable.get(map) : undefined;
  const offset = entry?.offsets.get(key);
  return entry === undefined || offset === undefined ? undefined : entry.counter.linePos(offset).line;
}

/** All key lines of a map read from a file. */
export function keyLines(map: unknown): Record<string, number> {
  const entry = typeof map === 'object' && map !== null ? keyOffsetTable.get(map) : undefined;
  if (entry === undefined) {
    return {};
  }
  const out: Record<string, number> = {};
  for (const [key, offset] of entry.offsets) {
    out[key] = entry.counter.linePos(offset).line;
  }
  return out;
}

class ReaderError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** Parse the text of one configuration file into its items. */
export function parseConfigFile(text: string): ParsedConfigFile {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false, merge: false, prettyErrors: false });
  const lines = text.split('\n');
  const problems: ParsedConfigFile['problems'] = [];
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      problems.push({ message: e.message.split('\n')[0], line: e.linePos?.[0]?.line });
    }
    return { items: [], problems };
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === undefined))) {
    return { items: [], problems };
  }
  if (!isSeq(root)) {
    problems.push({ message: 'Configuration file is not a list', line: lineOf(counter, root as YamlNode) });
    return { items: [], problems };
  }
  const reader = new NodeReader(doc, counter);
  const items: ConfigItem[] = [];
  for (const itemNode of root.items) {
    const node = itemNode as YamlNode;
    const mark = markOf(counter, lines, node);
    try {
      const value = reader.read(node);
      if (!isYamlMapping(value)) {
        problems.push({ message: 'Configuration item is not a dictionary', mark, line: mark.line });
        continue;
      }
      const keys = Object.keys(value);
      if (keys.length !== 1) {
        problems.push({
          message:
            keys.length === 0
              ? 'Configuration item is empty'
              : `Configuration item has more than one key: ${keys.join(', ')}`,
          mark,
          line: mark.line,
        });
        continue;
      }
      items.push({ key: keys[0], body: value[keys[0]], mark });
    } catch (err) {
      if (err instanceof ReaderError) {
        problems.push({ message: err.message, mark, line: err.line ?? mark.line });
        continue;
      }
      throw err;
    }
  }
  return { items, problems };
}

/** Parse a tenant file (same list-of-items rules, no custom tags needed but accepted). */
export const parseTenantFileText = parseConfigFile;

/** A YAML mapping: a plain object that is not a tagged value (`!override`, `!encrypted/...`). */
export function isYamlMapping(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !(value instanceof OverrideControl) && !(value instanceof EncryptedValue);
}

function lineOf(counter: LineCounter, node: YamlNode | null | undefined): number | undefined {
  const range = node?.range;
  return range ? counter.linePos(range[0]).line : undefined;
}

function markOf(counter: LineCounter, lines: string[], node: YamlNode): SourceMark {
  const range = node.range ?? [0, 0, 0];
  const start = counter.linePos(range[0]).line;
  let end = counter.linePos(Math.max(range[0], range[1] - 1)).line;
  while (end > start && (lines[end - 1] ?? '').trim() === '') {
    end--;
  }
  // Include the "- " of the list item, which sits on the first line.
  return { line: start, endLine: end, snippet: lines.slice(start - 1, end).join('\n') };
}

/** Turns YAML nodes into plain values, resolving aliases and merge keys and keeping tags. */
class NodeReader {
  constructor(
    private readonly doc: Document,
    private readonly counter: LineCounter,
  ) {}

  read(node: unknown): unknown {
    if (node === null || node === undefined) {
      return null;
    }
    if (isAlias(node)) {
      return this.read(node.resolve(this.doc));
    }
    const tag = (node as { tag?: string }).tag;
    const value = this.readUntagged(node);
    if (tag === undefined || tag.startsWith('tag:yaml.org,2002:')) {
      return value;
    }
    if (tag === '!override' || tag === '!inherit') {
      return new OverrideControl(tag === '!override' ? 'override' : 'inherit', value);
    }
    if (tag === '!encrypted/pkcs1-oaep') {
      const chunks = Array.isArray(value) ? value : [value];
      if (!chunks.every((c): c is string => typeof c === 'string')) {
        throw new ReaderError(
          'An encrypted value must be a string or a list of strings',
          lineOf(this.counter, node as YamlNode),
        );
      }
      return new EncryptedValue(chunks.map((c) => c.replace(/\s+/g, '')));
    }
    throw new ReaderError(`Unknown YAML tag ${tag}`, lineOf(this.counter, node as YamlNode));
  }

  private readUntagged(node: unknown): unknown {
    if (isScalar(node)) {
      return node.value;
    }
    if (isSeq(node)) {
      return node.items.map((item) => this.read(item));
    }
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      const offsets = new Map<string, number>();
      const merged: Array<Record<string, unknown>> = [];
      for (const pair of node.items) {
        if (!isPair(pair)) {
          continue;
        }
        const keyNode = pair.key as YamlNode | null;
        const key = isScalar(keyNode) ? String(keyNode.value) : String(this.read(keyNode));
        if (key === '<<' && isScalar(keyNode) && keyNode.type === 'PLAIN') {
          merged.push(...this.mergeSources(pair.value));
          continue;
        }
        if (Object.prototype.hasOwnProperty.call(out, key)) {
          throw new ReaderError(
            `The key "${key}" appears more than once; duplicate keys are not permitted.`,
            lineOf(this.counter, keyNode),
          );
        }
        out[key] = this.read(pair.value);
        const offset = keyNode?.range?.[0];
        if (offset !== undefined) {
          offsets.set(key, offset);
        }
      }
      for (const source of merged) {
        for (const [k, v] of Object.entries(source)) {
          if (!Object.prototype.hasOwnProperty.call(out, k)) {
            out[k] = v;
          }
        }
      }
      keyOffsetTable.set(out, { counter: this.counter, offsets });
      return out;
    }
    return null;
  }

  private mergeSources(value: unknown): Array<Record<string, unknown>> {
    const resolved = this.read(value);
    const list = Array.isArray(resolved) ? resolved : [resolved];
    const sources: Array<Record<string, unknown>> = [];
    for (const entry of list) {
      if (!isYamlMapping(entry)) {
        throw new ReaderError('Merge keys (<<) must refer to mappings');
      }
      sources.push(entry);
    }
    return sources;
  }
}
