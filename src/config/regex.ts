/**
 * Regular expressions of the configuration language (docs/project-configuration.md#configuration-files): RE2 syntax
 * matched with an implicit start anchor, given as a string or `{regex, negate}`. Sluice compiles them with the
 * JavaScript engine: Python's `(?P<name>...)` is accepted, and constructs RE2 lacks (lookaround,
 * backreferences) still work but produce a "Regex Deprecation" warning as in the reference.
 */
import { ConfigObjectError, ErrorName } from './config-error';
import { isYamlMapping } from './yaml-source';

/** A regex as written in configuration. */
export interface RegexSpec {
  pattern: string;
  negate: boolean;
}

export interface CompiledRegex extends RegexSpec {
  /** Prefix-anchored matcher (the default semantics). */
  test(value: string): boolean;
}

const NOT_RE2 = /\(\?[=!]|\(\?<[=!]|\\[1-9]/;

function translate(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
}

/** True when the pattern uses constructs RE2 does not support. */
export function isDeprecatedRegex(pattern: string): boolean {
  return NOT_RE2.test(pattern);
}

/**
 * Push a `Regex Deprecation` warning to `warnings` for each pattern RE2 does not support (the
 * pattern still works; docs/project-configuration.md#configuration-files).
 */
export function warnDeprecatedRegexes(
  patterns: ReadonlyArray<string | RegexSpec>,
  attribute: string,
  warnings: ConfigObjectError[],
): void {
  for (const entry of patterns) {
    const pattern = typeof entry === 'string' ? entry : entry.pattern;
    if (isDeprecatedRegex(pattern)) {
      warnings.push(
        new ConfigObjectError(
          `The regular expression "${pattern}" uses syntax RE2 does not support; it is deprecated.`,
          ErrorName.regexDeprecation,
          attribute,
          'warning',
        ),
      );
    }
  }
}

/** Compile a prefix-anchored regex; throws a ConfigObjectError when it does not compile. */
export function compileRegex(spec: RegexSpec, attribute?: string): CompiledRegex {
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${translate(spec.pattern)})`, 'u');
  } catch {
    try {
      re = new RegExp(`^(?:${translate(spec.pattern)})`);
    } catch (err) {
      throw new ConfigObjectError(
        `Invalid regular expression "${spec.pattern}": ${(err as Error).message}`,
        ErrorName.syntax,
        attribute,
      );
    }
  }
  return { ...spec, test: (value: string) => re.test(value) !== spec.negate };
}

/** Compile a full-match regex (tenant-file branch filters use Python `fullmatch` semantics). */
export function compileFullMatch(pattern: string, attribute?: string): (value: string) => boolean {
  try {
    const re = new RegExp(`^(?:${translate(pattern)})$`);
    return (value: string) => re.test(value);
  } catch (err) {
    throw new ConfigObjectError(
      `Invalid regular expression "${pattern}": ${(err as Error).message}`,
      ErrorName.syntax,
      attribute,
    );
  }
}

/** Read a regex or list of regexes (`str`, `{regex, negate}` or a list of either). */
export function readRegexList(value: unknown, attribute: string): RegexSpec[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (typeof entry === 'string') {
      return { pattern: entry, negate: false };
    }
    if (isYamlMapping(entry) && typeof entry.regex === 'string') {
      const extra = Object.keys(entry).filter((k) => k !== 'regex' && k !== 'negate');
      if (extra.length > 0) {
        throw new ConfigObjectError(
          `extra keys not allowed @ data['${attribute}']['${extra[0]}']`,
          ErrorName.syntax,
          attribute,
        );
      }
      if (entry.negate !== undefined && typeof entry.negate !== 'boolean') {
        throw new ConfigObjectError(
          `expected bool for dictionary value @ data['${attribute}']['negate']`,
          ErrorName.syntax,
          attribute,
        );
      }
      return { pattern: entry.regex, negate: entry.negate === true };
    }
    throw new ConfigObjectError(
      `expected a regex string or {regex, negate} for dictionary value @ data['${attribute}']`,
      ErrorName.syntax,
      attribute,
    );
  });
}

/**
 * A branch matcher: explicit regexes (any may match) or an implied exact match on a branch.
 * `implied` matchers are shown as the branch name in the API.
 */
export interface BranchMatcher {
  kind: 'explicit' | 'implied';
  regexes: RegexSpec[];
}

/**
 * An item of a ref that is no branch as branch matchers see it (docs/project-configuration.md#jobs):
 * its full ref and, for a tag, the branches that contain the tagged commit, which the merger
 * found (none for another ref).
 */
export interface RefTarget {
  ref: string;
  containingBranches: readonly string[];
}

/** What a branch matcher is matched against: a branch name, or a tag or other ref. */
export type BranchTarget = string | RefTarget;

/**
 * Whether `matcher` accepts `target` (undefined matcher = all branches and refs). A tag matches
 * when a regex matches its full ref or one of the branches containing its commit (an implied
 * matcher: a containing branch equal to its branch), another ref when a regex matches it, as in
 * the reference.
 */
export function matchesBranch(matcher: BranchMatcher | undefined, target: BranchTarget): boolean {
  if (matcher === undefined) {
    return true;
  }
  if (typeof target === 'string') {
    return matcher.regexes.some((spec) => matchesOne(matcher, spec, target));
  }
  return matcher.regexes.some(
    (spec) =>
      matchesRef(spec, target.ref) || target.containingBranches.some((branch) => matchesOne(matcher, spec, branch)),
  );
}

function matchesOne(matcher: BranchMatcher, spec: RegexSpec, branch: string): boolean {
  return matcher.kind === 'implied' ? spec.pattern === branch : cachedRegex(spec).test(branch);
}

/** The full ref is matched with the regex even by an implied matcher (its branch name read as one). */
function matchesRef(spec: RegexSpec, ref: string): boolean {
  try {
    return cachedRegex(spec).test(ref);
  } catch {
    return false; // a branch name that is no valid regex matches no ref
  }
}

const regexCache = new Map<string, CompiledRegex>();

/** Compile (once) a regex that was validated at load time. */
export function cachedRegex(spec: RegexSpec): CompiledRegex {
  const key = `${spec.negate ? '!' : ''}${spec.pattern}`;
  let compiled = regexCache.get(key);
  if (compiled === undefined) {
    compiled = compileRegex(spec);
    regexCache.set(key, compiled);
  }
  return compiled;
}
