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
 * The result's JSON is kept as bytes, written as the middle fragment of the message without a
 * per-subscriber copy (`sharedMessageParts`).
 */

const MARKER_PREFIX = '\u0000sluice-shared-result:';
/** `{"id":"…","type":"next","payload":"<marker>"}` as graphql-ws writes it (payload is the last key). */
const MARKED_MESSAGE = /,"payload":"\\u0000sluice-shared-result:(\d+)"}$/;

const sharedResults = new WeakSet<object>();
const jsonOfResult = new WeakMap<object, Buffer>();
/**
 * The JSON (UTF-8) of the placeholder stringified last, not sent yet. graphql-ws sends a message
 * in the same synchronous step as it stringifies it, so only the last one can still be sent: an
 * earlier one was dropped unsent (its socket was closing) and is forgotten.
 */
let pending: { marker: number; json: Buffer } | null = null;
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
    json = Buffer.from(JSON.stringify(result));
    jsonOfResult.set(result, json);
  }
  const body = json;
  return {
    toJSON() {
      nextMarker = (nextMarker + 1) % Number.MAX_SAFE_INTEGER;
      pending = { marker: nextMarker, json: body };
      return `${MARKER_PREFIX}${nextMarker}`;
    },
  };
}

/**
 * A marked `next` message as three parts, the shared JSON in the middle: written as fragments
 * of one WebSocket message, the JSON bytes are not copied per subscriber. Null for any other
 * message.
 */
export function sharedMessageParts(message: string): { head: string; json: Buffer; tail: string } | null {
  if (!message.endsWith('"}')) {
    return null;
  }
  const match = MARKED_MESSAGE.exec(message);
  const marker = match ? Number(match[1]) : NaN;
  const json = pending?.marker === marker ? pending.json : undefined;
  if (!match || json === undefined) {
    return null;
  }
  pending = null;
  return { head: `${message.slice(0, match.index)},"payload":`, json, tail: '}' };
}

/** The message to write as one string: a marked `next` message gets the shared JSON as its payload. */
export function spliceSharedResult(message: string): string {
  const parts = sharedMessageParts(message);
  return parts === null ? message : `${parts.head}${parts.json.toString()}${parts.tail}`;
}
