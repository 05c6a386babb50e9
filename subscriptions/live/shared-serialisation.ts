/**
 * Serialise a shared subscription result once for all its subscribers. graphql-ws stringifies
 * every `next` message per subscriber; with 5,000 subscribers of one status that is 5,000
 * stringifications of the same object. Instead, `onNext` swaps a shared result for a
 * placeholder whose JSON is a marker string, and the socket's `send` replaces the marker with
 * the result's JSON, computed once per result object.
 *
 * graphql-ws calls `send(stringifyMessage(...))` synchronously after `onNext` resolves, so a
 * marker is consumed by the very next send on that socket; the marker is only honoured as the
 * whole `payload` at the end of a `next` message, so no string inside a result can trigger it.
 */

const MARKER_PREFIX = '\u0000sluice-shared-result:';
/** `{"id":"…","type":"next","payload":"<marker>"}` as graphql-ws writes it (payload is the last key). */
const MARKED_MESSAGE = /,"payload":"\\u0000sluice-shared-result:(\d+)"}$/;

const sharedResults = new WeakSet<object>();
const jsonOfResult = new WeakMap<object, string>();
/** JSON of placeholders stringified but not yet sent, by marker number. */
const pending = new Map<number, string>();
let nextMarker = 0;

/** Record that every subscriber of this operation receives this very result object. */
export function markSharedResult<T>(result: T): T {
  if (typeof result === 'object' && result !== null) {
    sharedResults.add(result);
  }
  return result;
}

/** The placeholder to send instead of `result`, or undefined when the result is not shared. */
export function sharedResultPlaceholder(result: unknown): { toJSON(): string } | undefined {
  if (typeof result !== 'object' || result === null || !sharedResults.has(result)) {
    return undefined;
  }
  let json = jsonOfResult.get(result);
  if (json === undefined) {
    json = JSON.stringify(result);
    jsonOfResult.set(result, json);
  }
  const body = json;
  return {
    toJSON() {
      nextMarker = (nextMarker + 1) % Number.MAX_SAFE_INTEGER;
      pending.set(nextMarker, body);
      return `${MARKER_PREFIX}${nextMarker}`;
    },
  };
}

/** The message to write: a marked `next` message gets the shared JSON as its payload. */
export function spliceSharedResult(message: string): string {
  if (!message.endsWith('"}')) {
    return message;
  }
  const match = MARKED_MESSAGE.exec(message);
  const marker = match ? Number(match[1]) : NaN;
  const json = pending.get(marker);
  if (!match || json === undefined) {
    return message;
  }
  pending.delete(marker);
  return `${message.slice(0, match.index)},"payload":${json}}`;
}
