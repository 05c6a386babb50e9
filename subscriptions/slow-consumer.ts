/**
 * Per-socket send limits (docs/live.md#slow-consumers): a client that stops reading must not make
 * the server buffer without bound. A socket whose unsent bytes reach the limit, or whose send
 * does not complete within the send timeout, is closed with `SLOW_CONSUMER_CLOSE_CODE`; the close
 * frame waits behind what is already queued, so the connection is dropped outright when the
 * client still has not read it after the grace period. Nothing more is queued for it meanwhile.
 */
import type { WebSocket } from 'ws';

/** Close code of a socket dropped because its client did not read fast enough. */
export const SLOW_CONSUMER_CLOSE_CODE = 4008;

export interface SendLimits {
  /** Unsent bytes a socket may hold (one more message may go over it). */
  maxBufferedBytes: number;
  /** A send not handed to the network within this time drops the socket. */
  sendTimeoutMs: number;
  /** Time the close frame gets before the connection is dropped. */
  closeGraceMs: number;
  /** Told about every socket dropped (for the log). */
  onDrop?: (info: { bufferedBytes: number; reason: string }) => void;
}

export const DEFAULT_SEND_LIMITS: SendLimits = {
  maxBufferedBytes: 4 * 1024 * 1024,
  sendTimeoutMs: 30_000,
  closeGraceMs: 5_000,
};

/** Dropped sockets, with a promise that resolves when each is closed. */
const dropped = new WeakMap<WebSocket, Promise<void>>();

/** Whether the socket was dropped as a slow consumer (nothing is sent to it any more). */
export function isDropped(socket: WebSocket): boolean {
  return dropped.has(socket);
}

/** Close a socket whose client does not keep up; drop the connection if the close frame is not read in time. */
export function dropSlowConsumer(socket: WebSocket, limits: SendLimits, reason: string): void {
  if (dropped.has(socket)) {
    return;
  }
  dropped.set(
    socket,
    new Promise((resolve) => {
      if (socket.readyState === socket.CLOSED) {
        resolve();
      } else {
        socket.once('close', () => resolve());
      }
    }),
  );
  limits.onDrop?.({ bufferedBytes: socket.bufferedAmount, reason });
  socket.close(SLOW_CONSUMER_CLOSE_CODE, reason);
  const timer = setTimeout(() => socket.terminate(), limits.closeGraceMs);
  timer.unref?.();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Send one message under the limits: refused (the socket is dropped instead) when the socket
 * already holds `maxBufferedBytes` unsent. Resolves once the message is handed to the network;
 * a send that takes longer than `sendTimeoutMs` drops the socket. A message refused because the
 * socket was dropped resolves only when the socket is closed, so its sender (one subscription)
 * stops producing messages nobody will read.
 */
export function limitedSend(
  socket: WebSocket,
  data: string | Buffer,
  limits: SendLimits,
  send: (data: string | Buffer, done: (error?: Error) => void) => void = (message, done) => socket.send(message, done),
): Promise<void> {
  const closing = dropped.get(socket);
  if (closing) {
    return closing;
  }
  if (socket.readyState !== socket.OPEN) {
    return Promise.resolve();
  }
  if (socket.bufferedAmount >= limits.maxBufferedBytes) {
    dropSlowConsumer(socket, limits, `Slow consumer: ${socket.bufferedAmount} bytes unsent`);
    return dropped.get(socket) ?? Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      dropSlowConsumer(socket, limits, `Slow consumer: a message unsent after ${limits.sendTimeoutMs} ms`);
      void dropped.get(socket)?.then(resolve);
    }, limits.sendTimeoutMs);
    timer.unref?.();
    send(data, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
