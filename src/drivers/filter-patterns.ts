/**
 * Regex attributes of trigger filters (GitHub, Gerrit and GitLab `branch`, `ref`, `comment`, ...)
 * take what the reference's `make_regex` takes: a string or `{regex, negate}`, alone or in a list
 * (docs/project-configuration.md#configuration-files). Each driver keeps its own anchoring (start,
 * full or search) by passing the function that compiles one pattern; this module reads the entries
 * and adds the negation, so a `{regex, negate}` entry is never read as the text "[object Object]".
 */
import type { OptionReaders } from './driver';

export interface PatternEntry {
  pattern: string;
  negate: boolean;
}

/** What a compiled entry offers: `test` true when the value matches (false for a negated match). */
export interface FilterMatcher {
  test(value: string): boolean;
}

/** Where a pattern must match: from the start (`re.match`), the whole value, or anywhere (`re.search`). */
export type Anchoring = 'start' | 'full' | 'search';

/**
 * One pattern as the JavaScript engine runs it: a leading `(?i)` (Python's inline flag, common in
 * the reference's `comment` filters) makes it case-insensitive and `(?P<name>` groups are accepted.
 */
export function compilePattern(text: string, anchoring: Anchoring): RegExp {
  const caseless = text.startsWith('(?i)');
  const body = (caseless ? text.slice(4) : text).replace(/\(\?P</g, '(?<');
  const source = anchoring === 'search' ? body : anchoring === 'full' ? `^(?:${body})$` : `^(?:${body})`;
  return new RegExp(source, caseless ? 'i' : '');
}

function list(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

function isRegexMap(entry: unknown): entry is { regex: unknown; negate?: unknown } {
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) && 'regex' in entry;
}

/** The entries as written; anything that is neither form is kept as its text (validation refuses it first). */
export function patternEntries(value: unknown): PatternEntry[] {
  return list(value).map((entry) =>
    isRegexMap(entry)
      ? { pattern: String(entry.regex), negate: entry.negate === true }
      : { pattern: String(entry), negate: false },
  );
}

/** The compiled entries of an attribute; a negated entry matches the values its regex does not. */
export function filterMatchers(value: unknown, compile: (pattern: string) => RegExp): FilterMatcher[] {
  return patternEntries(value).map(({ pattern, negate }) => {
    const re = compile(pattern);
    return { test: (text: string) => re.test(text) !== negate };
  });
}

/**
 * Check an attribute's entries: each a string or `{regex: <string>, negate: <bool>}` whose pattern
 * compiles with `compile`; a pattern RE2 lacks adds the reference's `Regex Deprecation` warning.
 */
export function checkFilterPatterns(
  value: unknown,
  read: OptionReaders,
  compile: (pattern: string) => RegExp,
  attribute: string,
): void {
  for (const entry of list(value)) {
    if (isRegexMap(entry)) {
      const extra = Object.keys(entry).filter((key) => key !== 'regex' && key !== 'negate');
      if (extra.length > 0) {
        read.fail(`extra keys not allowed @ data['${attribute}']['${extra[0]}']`);
      }
      if (typeof entry.regex !== 'string') {
        read.fail(`expected str for dictionary value @ data['${attribute}']['regex']`);
      }
      if (entry.negate !== undefined && typeof entry.negate !== 'boolean') {
        read.fail(`expected bool for dictionary value @ data['${attribute}']['negate']`);
      }
    } else if (typeof entry !== 'string' && typeof entry !== 'number') {
      read.fail(`expected a regex string or {regex, negate} for dictionary value @ data['${attribute}']`);
    }
  }
  const entries = patternEntries(value);
  for (const { pattern } of entries) {
    try {
      compile(pattern);
    } catch (err) {
      read.fail(`Invalid regular expression "${pattern}": ${(err as Error).message}`);
    }
  }
  read.deprecatedRegexes(entries.map((entry) => entry.pattern));
}
