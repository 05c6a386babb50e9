/**
 * Send limits for GraphQL over server-sent events (docs/live.md#slow-consumers): the same
 * `SendLimits` as the WebSockets. yoga answers `Accept: text/event-stream` with a stream of
 * chunks; this writes them to the response as they come, without waiting for the client, and
 * drops the connection once the response holds `maxBufferedBytes` unsent (one more chunk may
 * go over it) or a chunk is not handed to the network within `sendTimeoutMs`. An SSE response
 * has no close code: the connection is destroyed, and the subscription behind it ends.
 */
import type http from 'node:http';
import type { SendLimits } from './slow-consumer';

/** Bytes written to the response that the network has not taken yet (the response's and its socket's). */
function unsentBytes(res: http.ServerResponse): number {
  return res.writableLength;
}

/** Lets corked writes reach the socket and the kernel take what it will (after I/O callbacks). */
const ioTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Write an event stream to `res` under `limits`; resolves when the stream ended, the client went
 * away or it was dropped. The iterator is always returned (the subscription stops).
 */
export async function writeEventStream(
  body: AsyncIterable<Uint8Array | string>,
  res: http.ServerResponse,
  limits: SendLimits,
): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  let closed = res.destroyed;
  const stop = (): void => {
    if (closed) {
      return;
    }
    closed = true;
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  res.once('close', stop);
  const drop = (reason: string): void => {
    if (closed) {
      return;
    }
    limits.onDrop?.({ bufferedBytes: unsentBytes(res), reason });
    stop();
    res.destroy();
  };
  try {
    while (!closed) {
      const next = await iterator.next();
      if (next.done === true || closed) {
        break;
      }
      if (unsentBytes(res) > 0) {
        await ioTurn();
        if (closed) {
          break;
        }
      }
      const unsent = unsentBytes(res);
      if (unsent >= limits.maxBufferedBytes) {
        drop(`Slow consumer: ${unsent} bytes unsent`);
        break;
      }
      const timer = setTimeout(
        () => drop(`Slow consumer: a message unsent after ${limits.sendTimeoutMs} ms`),
        limits.sendTimeoutMs,
      );
      timer.unref?.();
      res.write(next.value, () => clearTimeout(timer));
    }
    if (!closed) {
      res.end();
    }
  } catch {
    res.destroy();
  } finally {
    res.off('close', stop);
    stop();
  }
}
