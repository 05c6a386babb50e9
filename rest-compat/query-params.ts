/**
 * Query parameters checked against an endpoint's declared spec
 * (docs/rest.md#deliberate-differences-from-the-reference, docs/rest.md#input-rules): an unknown name, a repeated
 * single-valued parameter, a control character or a malformed or out-of-range number answers 400 naming the parameter;
 * integers get their defaults and are clamped to their maximum.
 */
import { INT32_MAX, stringProblem } from '../src/model/value-checks';
import { badRequest } from './errors';
import type { QueryParamSpec, QuerySpec } from './route';

type ParsedValue = string[] | number | boolean;

/** Parsed, validated query parameters of one request. */
export class ParsedQuery {
  constructor(private readonly values: ReadonlyMap<string, ParsedValue>) {}

  /** Values of a string parameter (repeated or not); undefined when absent. */
  strings(name: string): string[] | undefined {
    const value = this.values.get(name);
    return Array.isArray(value) ? value : undefined;
  }

  /** The single value of a string parameter; undefined when absent. */
  string(name: string): string | undefined {
    return this.strings(name)?.[0];
  }

  /** An integer parameter (its default when absent). */
  integer(name: string): number | undefined {
    const value = this.values.get(name);
    return typeof value === 'number' ? value : undefined;
  }

  /** A flag or true-or-other parameter; undefined when absent. */
  boolean(name: string): boolean | undefined {
    const value = this.values.get(name);
    return typeof value === 'boolean' ? value : undefined;
  }

  has(name: string): boolean {
    return this.values.has(name);
  }
}

/** Parses `search` against `spec`; throws a 400 RestError on the first problem. */
export function parseQuery(search: URLSearchParams, spec: QuerySpec): ParsedQuery {
  const raw = new Map<string, string[]>();
  for (const [name, value] of search) {
    raw.set(name, [...(raw.get(name) ?? []), value]);
  }
  for (const [name, values] of raw) {
    if (!Object.hasOwn(spec, name)) {
      throw badRequest(`Unknown query parameter: ${name}`);
    }
    for (const value of values) {
      const problem = stringProblem(value);
      if (problem !== null) {
        throw badRequest(`Query parameter ${name} ${problem}`);
      }
    }
  }
  const parsed = new Map<string, ParsedValue>();
  for (const [name, paramSpec] of Object.entries(spec)) {
    const values = raw.get(name);
    if (values === undefined) {
      if (paramSpec.type === 'integer' && paramSpec.default !== undefined) {
        parsed.set(name, paramSpec.default);
      }
      continue;
    }
    if (values.length > 1 && !paramSpec.repeated) {
      throw badRequest(`Query parameter ${name} may be given only once`);
    }
    parsed.set(name, parseValues(name, values, paramSpec));
  }
  return new ParsedQuery(parsed);
}

function parseValues(name: string, values: string[], spec: QueryParamSpec): ParsedValue {
  switch (spec.type) {
    case 'string':
      return values;
    case 'integer': {
      const value = values[0];
      if (!/^\d+$/.test(value)) {
        throw badRequest(`Query parameter ${name} must be a non-negative integer`);
      }
      const number = Number(value);
      if (spec.maximum !== undefined) {
        return Math.min(number, spec.maximum);
      }
      // Integers become GraphQL `Int`s (docs/rest.md#input-rules).
      if (number > INT32_MAX) {
        throw badRequest(`Query parameter ${name} must be at most ${INT32_MAX}`);
      }
      return number;
    }
    case 'flag': {
      const value = values[0].toLowerCase();
      if (value === '1' || value === 'true') {
        return true;
      }
      if (value === '0' || value === 'false') {
        return false;
      }
      throw badRequest(`Query parameter ${name} must be 1, 0, true or false`);
    }
    case 'true-or-other':
      return values[0].toLowerCase() === 'true';
  }
}
