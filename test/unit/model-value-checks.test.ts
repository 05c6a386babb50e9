/** The string, integer, JSON and tenant-name rules of docs/rest.md#input-rules and the nesting guard. */
import {
  controlCharacterIn,
  int32Problem,
  isTenantName,
  jsonProblem,
  stringProblem,
  tenantNameProblem,
  utf8Length,
} from '../../src/model/value-checks';
import { nestsDeeperThan } from '../../src/server/nesting-guard';

describe('string rules', () => {
  it('identifiers hold no C0 control character and no DEL; free text may hold tab and line breaks', () => {
    for (const code of [0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f]) {
      expect(controlCharacterIn(`a${String.fromCharCode(code)}b`, 'identifier')).toBe(code);
    }
    expect(controlCharacterIn('tab\there\nline\r', 'free-text')).toBeNull();
    expect(controlCharacterIn('a\u0000', 'free-text')).toBe(0);
    for (const ok of ['', 'org/project', '*', '%00', '\u0085', '\u2028', '☃', '𝄞']) {
      expect(controlCharacterIn(ok, 'identifier')).toBeNull();
    }
    expect(stringProblem('a\u001fb')).toBe('must not contain control characters (found U+001F)');
    expect(stringProblem('a\u0000', 'free-text')).toBe(
      'must not contain control characters other than tab and line breaks (found U+0000)',
    );
    expect(stringProblem('fine')).toBeNull();
  });

  it('identifiers are at most 512 bytes of UTF-8; free text has no such limit', () => {
    expect(utf8Length('a€𝄞')).toBe(1 + 3 + 4);
    expect(stringProblem('x'.repeat(512))).toBeNull();
    expect(stringProblem('x'.repeat(513))).toBe('must be at most 512 bytes long');
    expect(stringProblem('界'.repeat(170))).toBeNull();
    expect(stringProblem('界'.repeat(171))).toBe('must be at most 512 bytes long');
    expect(stringProblem('x'.repeat(100_000), 'free-text')).toBeNull();
  });

  it('32-bit integers', () => {
    expect(int32Problem(2 ** 31 - 1)).toBeNull();
    expect(int32Problem(-(2 ** 31))).toBeNull();
    expect(int32Problem(2 ** 31)).toBe('must be between -2147483648 and 2147483647');
    expect(int32Problem(1.5)).toBe('must be an integer');
  });

  it('tenant names are URL-safe, and `*` is none', () => {
    expect(isTenantName('tenant-one')).toBe(true);
    expect(isTenantName('a.b_c~d')).toBe(true);
    for (const bad of ['*', '', 'a/b', 'a b', 'a\u0000']) {
      expect(isTenantName(bad)).toBe(false);
    }
    expect(tenantNameProblem('*')).toBe('Invalid tenant name "*": letters, digits and _.~- only');
  });
});

describe('JSON values', () => {
  it('report the first refused string or key with its path, in document order', () => {
    expect(jsonProblem({ pipeline: 'gate', changes: ['1,1', '2,1\u0000'], ref: '\u0001' })).toEqual({
      path: 'changes[1]',
      problem: 'must not contain control characters (found U+0000)',
    });
    expect(jsonProblem({ outer: { 'a\u0000': 1 } })).toEqual({
      path: 'outer."a\\u0000"',
      problem: 'is a key that must not contain control characters (found U+0000)',
    });
    expect(jsonProblem({ reason: 'two\nlines' }, (key) => (key === 'reason' ? 'free-text' : 'identifier'))).toBeNull();
    expect(jsonProblem({ other: 'two\nlines' }, (key) => (key === 'reason' ? 'free-text' : 'identifier'))).toEqual({
      path: 'other',
      problem: 'must not contain control characters (found U+000A)',
    });
    expect(jsonProblem({ a: [1, true, null, { b: 'ok' }] })).toBeNull();
  });

  it('refuse nesting deeper than 32 levels without recursion', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    expect(jsonProblem({ reason: deep })).toEqual({
      path: `reason${'[0]'.repeat(31)}`,
      problem: 'is nested deeper than 32 levels',
    });
    let shallow: unknown = 'x';
    for (let i = 0; i < 31; i++) {
      shallow = [shallow];
    }
    expect(jsonProblem(shallow)).toBeNull();
  });
});

describe('GraphQL nesting guard', () => {
  it('counts brackets, braces and parentheses outside strings, block strings and comments', () => {
    expect(nestsDeeperThan('{ a { b { c } } }', 3)).toBe(false);
    expect(nestsDeeperThan('{ a { b { c { d } } } }', 3)).toBe(true);
    expect(nestsDeeperThan('{ a(x: [[["x"]]]) }', 4)).toBe(true);
    expect(nestsDeeperThan('{ a(x: "[[[[[[[[") }', 2)).toBe(false);
    expect(nestsDeeperThan('{ a(x: "\\"[[[[[[[[") }', 2)).toBe(false);
    expect(nestsDeeperThan('{ a(x: """ [[[[[ \\""" [[[[ """) }', 2)).toBe(false);
    expect(nestsDeeperThan('# [[[[[[[[[[\n{ a }', 1)).toBe(false);
    expect(nestsDeeperThan('] ] ] { a }', 1)).toBe(false);
  });

  it('stops at the limit on documents far deeper than the parser can take', () => {
    const deep = `{ a(x: ${'['.repeat(1_000_000)}"x"${']'.repeat(1_000_000)}) }`;
    expect(nestsDeeperThan(deep, 64)).toBe(true);
  });
});
