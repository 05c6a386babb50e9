/**
 * The nesting limit of GraphQL documents (docs/security.md#graphql-limits): graphql-js parses and
 * validates nested lists, objects and selections recursively, so a document nested a few thousand
 * levels deep exhausts the stack before the token limit stops it. This guard counts brackets,
 * braces and parentheses in one pass over the source, without recursion and before the parser
 * runs, skipping strings, block strings and comments.
 */
import { GraphQLError, type Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const OPENERS = new Set(['[', '{', '(']);
const CLOSERS = new Set([']', '}', ')']);

/** True when `source` nests brackets, braces or parentheses deeper than `max`. */
export function nestsDeeperThan(source: string, max: number): boolean {
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === '#') {
      i = skipComment(source, i);
    } else if (char === '"') {
      i = source.startsWith('"""', i) ? skipBlockString(source, i) : skipString(source, i);
    } else {
      if (OPENERS.has(char)) {
        depth++;
        if (depth > max) {
          return true;
        }
      } else if (CLOSERS.has(char) && depth > 0) {
        depth--;
      }
      i++;
    }
  }
  return false;
}

/** Index after a `#` comment (it ends at a line break). */
function skipComment(source: string, start: number): number {
  let i = start;
  while (i < source.length && source[i] !== '\n' && source[i] !== '\r') {
    i++;
  }
  return i;
}

/** Index after a string literal starting at `start` (an unterminated one ends at its line break). */
function skipString(source: string, start: number): number {
  let i = start + 1;
  while (i < source.length && source[i] !== '"' && source[i] !== '\n' && source[i] !== '\r') {
    i += source[i] === '\\' ? 2 : 1;
  }
  return i + 1;
}

/** Index after a block string starting at `start` (`\"""` does not end it). */
function skipBlockString(source: string, start: number): number {
  let i = start + 3;
  while (i < source.length && !source.startsWith('"""', i)) {
    i += source.startsWith('\\"""', i) ? 4 : 1;
  }
  return i + 3;
}

/** The refusal, worded like graphql-armor's limits. */
export function nestingLimitError(max: number): GraphQLError {
  return new GraphQLError(`Syntax Error: Nesting limit of ${max} exceeded.`, {
    extensions: { code: 'GRAPHQL_PARSE_FAILED', http: { status: 400 } },
  });
}

/** Refuses documents nested deeper than `max` before they are parsed, on every transport. */
export function useNestingLimit(max: number): Plugin {
  return {
    onParse({ params }) {
      const source: string | Source = params.source;
      if (nestsDeeperThan(typeof source === 'string' ? source : source.body, max)) {
        throw nestingLimitError(max);
      }
    },
  };
}
