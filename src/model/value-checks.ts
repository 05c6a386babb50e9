/** Checks on untyped values (parsed YAML and JSON, bus payloads, names from outside) that every layer uses. */

/** A non-null object that is not an array: a JSON object or a YAML mapping before further checks. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `text` contains a control character (C0 range or DEL). */
export function hasControlCharacter(text: string): boolean {
  return controlCharacterIn(text, 'identifier') !== null;
}

/**
 * What a string of outside input is (docs/rest.md#input-rules): an `identifier` (names, ids, refs,
 * filters) may hold no control character at all; `free-text` (reasons, comments) may also hold
 * tab, line feed and carriage return.
 */
export type StringKind = 'identifier' | 'free-text';

const FREE_TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0d]);

/** The first control character (C0 range or DEL) of `text` the kind does not allow, or null. */
export function controlCharacterIn(text: string, kind: StringKind): number | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 || code === 0x7f) && !(kind === 'free-text' && FREE_TEXT_CONTROLS.has(code))) {
      return code;
    }
  }
  return null;
}

/**
 * The longest identifier, in UTF-8 bytes: names, refs and ids end up in btree indexes, whose rows
 * PostgreSQL limits to 2704 bytes, sometimes three identifiers in one row (docs/rest.md#input-rules).
 */
export const MAX_IDENTIFIER_BYTES = 512;

/** The length of `text` in UTF-8 bytes. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Each half of a surrogate pair counts 2: the pair is one 4-byte character.
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdfff ? 2 : 3;
  }
  return bytes;
}

/**
 * Why a string of outside input is refused, as a predicate to put after its name ("must not
 * contain control characters (found U+0000)"); null when it is acceptable.
 */
export function stringProblem(text: string, kind: StringKind = 'identifier'): string | null {
  if (kind === 'identifier' && text.length > MAX_IDENTIFIER_BYTES / 4 && utf8Length(text) > MAX_IDENTIFIER_BYTES) {
    return `must be at most ${MAX_IDENTIFIER_BYTES} bytes long`;
  }
  const code = controlCharacterIn(text, kind);
  if (code === null) {
    return null;
  }
  const found = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return kind === 'free-text'
    ? `must not contain control characters other than tab and line breaks (found ${found})`
    : `must not contain control characters (found ${found})`;
}

/** The range of a GraphQL `Int` (32-bit signed), where REST integers end up. */
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;

/** The largest value of a PostgreSQL `bigint` (database ids). */
export const BIGINT_MAX = 9223372036854775807n;

/** Why a JSON number is refused where a 32-bit integer is expected; null when it is one. */
export function int32Problem(value: number): string | null {
  if (!Number.isInteger(value)) {
    return 'must be an integer';
  }
  return value < INT32_MIN || value > INT32_MAX ? `must be between ${INT32_MIN} and ${INT32_MAX}` : null;
}

/** Containers deeper than this in a JSON body are refused (docs/rest.md#input-rules). */
export const MAX_JSON_NESTING = 32;

/**
 * The first refused string or key of a JSON value, with its path (`changes[0]`, `reason.a`),
 * walking without recursion so that no nesting can exhaust the stack; `kindOf` says which top-level
 * keys hold free text. A container nested deeper than `MAX_JSON_NESTING` is a problem too.
 */
export function jsonProblem(
  value: unknown,
  kindOf: (topLevelKey: string) => StringKind = () => 'identifier',
): { path: string; problem: string } | null {
  const pending: Array<{ value: unknown; path: string; depth: number; kind: StringKind }> = [
    { value, path: '', depth: 0, kind: 'identifier' },
  ];
  // Depth first with a stack of its own (children pushed last-first): the first problem reported
  // is the first one written, and no nesting reaches the call stack.
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { path, depth, kind } = next;
    if (typeof next.value === 'string') {
      const problem = stringProblem(next.value, kind);
      if (problem !== null) {
        return { path, problem };
      }
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) {
      continue;
    }
    if (depth >= MAX_JSON_NESTING) {
      return { path, problem: `is nested deeper than ${MAX_JSON_NESTING} levels` };
    }
    if (Array.isArray(next.value)) {
      for (let index = next.value.length - 1; index >= 0; index--) {
        pending.push({ value: next.value[index] as unknown, path: `${path}[${index}]`, depth: depth + 1, kind });
      }
      continue;
    }
    const entries = Object.entries(next.value);
    for (const [key] of entries) {
      const keyProblem = stringProblem(key);
      if (keyProblem !== null) {
        return {
          path: `${path === '' ? '' : `${path}.`}${JSON.stringify(key)}`,
          problem: `is a key that ${keyProblem}`,
        };
      }
    }
    for (const [key, item] of entries.reverse()) {
      const keyPath = `${path === '' ? '' : `${path}.`}${key}`;
      pending.push({ value: item, path: keyPath, depth: depth + 1, kind: depth === 0 ? kindOf(key) : kind });
    }
  }
  return null;
}

/** Tenant names are URL-safe: letters, digits and `_.~-` (docs/rest.md#input-rules). */
export function isTenantName(name: string): boolean {
  return /^[A-Za-z0-9_.~-]+$/.test(name);
}

/** Why a tenant name that is written to is refused (`*` is the root's scope, not a tenant); null when valid. */
export function tenantNameProblem(name: string): string | null {
  return isTenantName(name) ? null : `Invalid tenant name ${JSON.stringify(name)}: letters, digits and _.~- only`;
}
