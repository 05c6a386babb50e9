/**
 * Deterministic input generators of the fuzz tests (test/integration/input-fuzz.test.ts): a seeded
 * pseudo-random source and the hostile values docs/rest.md#input-rules refuses or survives —
 * NUL and other control characters, huge and negative integers, deep nesting, random JSON.
 */

/** A seeded generator (mulberry32): the same seed gives the same sequence on every run. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) {
      throw new Error('pick from an empty list');
    }
    return items[this.below(items.length)];
  }

  /** A random subset of `items`, in order. */
  subset<T>(items: readonly T[], p = 0.5): T[] {
    return items.filter(() => this.chance(p));
  }
}

/** Integers around every boundary a store or a parser has: 32-bit, 53-bit, 64-bit, negative. */
export const HOSTILE_INTEGERS: readonly string[] = [
  '0',
  '-1',
  '-2147483649',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '1e309',
  '1.5',
  '0x10',
  '000000000001',
  '99999999999999999999999999999999',
];

/** Strings with control characters: every one must be refused with a 400 or a typed error. */
export const CONTROL_STRINGS: readonly string[] = [
  '\u0000',
  'org/project\u0000',
  'a\u0000b',
  '\u0001',
  '\u001b[31m',
  '\u001f',
  '\u007f',
  '\b',
  'line\nbreak',
  'tab\there',
  'carriage\r',
];

/** Strings that are valid input but hostile to SQL, LIKE patterns, paths or parsers. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '*',
  '%',
  '_',
  '\\',
  '%_*',
  '..',
  '../../etc/passwd',
  "'; DROP TABLE builds; --",
  '"',
  '{}',
  '[]',
  'null',
  'true',
  '\u0085',
  '\u2028',
  '\ufeff',
  '☃',
  '𝄞',
  'ünïcödé',
  'x'.repeat(3000),
  // Incompressible: PostgreSQL compresses repetitive values below its index row limit.
  Array.from({ length: 800 }, (_v, i) => ((i * 2654435761) >>> 0).toString(36)).join(''),
  'a/'.repeat(200),
  'refs/changes/01/1/1',
  '1,1',
  '00000000000000000000000000000000',
  'NaN',
  '-0',
];

/** Any string of the pools above (integers as text included). */
export function hostileString(random: Random): string {
  const pool = random.pick([CONTROL_STRINGS, ODD_STRINGS, HOSTILE_INTEGERS]);
  return random.pick(pool);
}

/** A JSON number that is no safe integer, or an ordinary one. */
export function hostileNumber(random: Random): number {
  return random.pick([
    0,
    -1,
    1,
    1.5,
    -(2 ** 31) - 1,
    2 ** 31,
    2 ** 53 + 2,
    2 ** 63,
    2 ** 64,
    -(2 ** 63) * 4,
    1e300,
    -1e300,
  ]);
}

/** An array or object nested `depth` levels deep around `leaf`. */
export function nested(depth: number, leaf: unknown, kind: 'array' | 'object' = 'array'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) {
    value = kind === 'array' ? [value] : { a: value };
  }
  return value;
}

/** JSON text of an array or object nested `depth` levels deep (deeper than JSON.stringify goes). */
export function nestedJsonText(depth: number, kind: 'array' | 'object' = 'array'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}"x"${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
}

/** A random JSON value (strings and numbers from the hostile pools, shallow or deep containers). */
export function randomJson(random: Random, depth = 0): unknown {
  const roll = random.below(depth > 2 ? 5 : 8);
  switch (roll) {
    case 0:
      return hostileString(random);
    case 1:
      return hostileNumber(random);
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    case 4:
      return random.pick(CONTROL_STRINGS);
    case 5:
      return Array.from({ length: random.below(4) }, () => randomJson(random, depth + 1));
    case 6:
      return Object.fromEntries(
        Array.from({ length: random.below(4) }, () => [hostileString(random), randomJson(random, depth + 1)]),
      );
    default:
      return nested(random.pick([50, 500]), hostileString(random), random.pick(['array', 'object']));
  }
}

/**
 * A path segment for `value`: usually encoded, sometimes raw escapes that decode badly
 * (`%00`, a lone `%`, overlong or invalid UTF-8, `%2F`).
 */
export function pathSegment(random: Random, value: string): string {
  if (random.chance(0.15)) {
    return random.pick(['%00', 'a%00b', '%', '%zz', '%C0%80', '%FF%FE', '%ED%A0%80', '%2F', '%2e%2e', '%0A']);
  }
  return encodeURIComponent(value);
}
