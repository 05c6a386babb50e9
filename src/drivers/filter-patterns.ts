/**
 * Trigger filters' regexes as the reference writes them (Python's `re`): a leading `(?i)` makes
 * the pattern case-insensitive and `(?P<name>` groups are accepted; shared by the GitHub and
 * GitLab drivers (docs/github.md#trigger-filters, docs/gitlab.md#trigger-filters).
 */
import type { OptionReaders } from './driver';

/** A filter's regex; `anchored` makes it match the whole value (the reference's full match). */
export function filterPattern(text: string, anchored = true): RegExp {
  const caseless = text.startsWith('(?i)');
  const body = (caseless ? text.slice(4) : text).replace(/\(\?P</g, '(?<');
  return new RegExp(anchored ? `^(?:${body})$` : body, caseless ? 'i' : '');
}

/** Check that every pattern compiles (a bad one is a configuration error naming the pattern). */
export function checkFilterPatterns(texts: readonly string[], read: OptionReaders): void {
  for (const text of texts) {
    try {
      filterPattern(text);
    } catch (err) {
      read.fail(`Invalid regular expression "${text}": ${(err as Error).message}`);
    }
  }
}
