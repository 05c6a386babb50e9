/**
 * Ages of reviews and votes as pipeline requirements write them (`newer-than`, `older-than`:
 * `30s`, `5m`, `2h`, `1d`, `1w`), shared by the GitHub and Gerrit rules (docs/github.md#requirements,
 * docs/gerrit.md#requirements).
 */

const TIME_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `30s`, `5m`, `2h`, `1d`, `1w` in seconds; undefined for anything else. */
export function timeToSeconds(value: unknown): number | undefined {
  const match = typeof value === 'string' ? /^(\d+)([smhdw])$/.exec(value) : null;
  return match === null ? undefined : Number(match[1]) * TIME_UNITS[match[2]];
}

/**
 * `newer-than`: given less than that long before `now`; `older-than`: at least that long before.
 * A review or vote without a time meets neither.
 */
export function givenWithin(
  givenAt: string,
  now: Date,
  newerThan: number | undefined,
  olderThan: number | undefined,
): boolean {
  if (newerThan === undefined && olderThan === undefined) {
    return true;
  }
  const given = Date.parse(givenAt);
  if (Number.isNaN(given)) {
    return false;
  }
  const age = (now.getTime() - given) / 1000;
  return (newerThan === undefined || age <= newerThan) && (olderThan === undefined || age > olderThan);
}
