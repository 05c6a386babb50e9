/**
 * Redaction of secret values from text (logs, console streams, error messages) and JSON
 * (API responses, events) before they leave the process.
 */

/** What a secret value is replaced with. */
export const REDACTED = '******';

/**
 * Values shorter than this are not redacted: a secret `data` map often holds short non-secret
 * companions (ports, `true`, usernames like `ci`), and masking every occurrence of them would
 * garble output without protecting anything.
 */
export const MIN_REDACTED_LENGTH = 4;

export interface Redactor {
  /** Replace every secret value (and every line of a multi-line one) in `text`. */
  redact(text: string): string;
  /** A copy of a JSON-like value with secrets redacted in all strings, keys included. */
  redactJson<T>(value: T): T;
  /** True when at least one value is being redacted. */
  readonly active: boolean;
}

/**
 * Build a redactor for these secret values. Multi-line values are matched whole and line by
 * line (after trimming), since logs are often written one line at a time.
 */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const needles = new Set<string>();
  for (const secret of secrets) {
    addNeedle(needles, secret);
    if (/[\r\n]/.test(secret)) {
      for (const line of secret.split(/\r?\n|\r/)) {
        addNeedle(needles, line.trim());
      }
    }
  }
  return redactorOf(needles);
}

/** The values a redactor masks, kept out of the object itself (it may end up in a log). */
const needlesOf = new WeakMap<Redactor, ReadonlySet<string>>();

function redactorOf(needles: ReadonlySet<string>): Redactor {
  // Longest first, so a value containing another is replaced whole.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  const pattern = ordered.length === 0 ? undefined : new RegExp(ordered.map(escapeRegExp).join('|'), 'g');
  const redact = (text: string): string => (pattern === undefined ? text : text.replace(pattern, REDACTED));
  const redactJson = <T>(value: T): T => (pattern === undefined ? value : (walk(value, redact) as T));
  const redactor: Redactor = { redact, redactJson, active: pattern !== undefined };
  needlesOf.set(redactor, needles);
  return redactor;
}

/** One redactor masking everything the given ones mask (longest value first, across all of them). */
export function combineRedactors(redactors: Iterable<Redactor>): Redactor {
  const needles = new Set<string>();
  for (const redactor of redactors) {
    for (const needle of needlesOf.get(redactor) ?? []) {
      needles.add(needle);
    }
  }
  return redactorOf(needles);
}

function addNeedle(needles: Set<string>, value: string): void {
  if (value.length >= MIN_REDACTED_LENGTH) {
    needles.add(value);
  }
}

function walk(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') {
    return redact(value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => walk(item, redact));
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), walk(item, redact)]));
  }
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every string leaf of a decrypted secret's data (what a redactor must hide). */
export function secretStrings(data: unknown): string[] {
  if (typeof data === 'string') {
    return [data];
  }
  if (typeof data === 'number' || typeof data === 'boolean') {
    return [String(data)];
  }
  if (Array.isArray(data)) {
    return data.flatMap(secretStrings);
  }
  if (typeof data === 'object' && data !== null) {
    return Object.values(data).flatMap(secretStrings);
  }
  return [];
}
