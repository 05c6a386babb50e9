/**
 * The reference console-stream WebSocket (docs/executor.md#live-console) at `/api/tenant/{tenant}/console-stream`.
 * The client sends one JSON message `{"uuid": ..., "logfile": ..., "token"?: ...}`; the server
 * streams the build's log as text frames (their concatenation is the log file) and closes:
 * - 4000 `'uuid' missing from request payload` / `'logfile' missing from request payload`, or
 *   the authorization error when `authorize` refuses (4000 as well);
 * - 4000 `Invalid request payload` when the message is not a JSON object (Sluice's choice);
 * - 4011 `Build not found` (unknown build or another tenant's), `Build did not start yet`,
 *   `Error with log streaming` (running in another process whose log root is not shared), `Unknown error`;
 * - 1000 `No more data` when the log has ended: a running build at its end, a finished build
 *   right after its log was replayed (docs/rest.md#deliberate-differences-from-the-reference).
 * With `accessChanges`, a stream whose reader loses access at a reconfiguration is closed with
 * 4000 and the authorization error, as if it had asked then.
 * Pings every 20 s keep idle connections open. Only upgrades on the console-stream path are
 * handled; everything else (graphql-ws on `/graphql`) is left alone.
 */
import type { IncomingMessage, Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ConsoleLine } from '../src/executor/build-log';
import { replayLogFile } from '../src/executor/build-log';
import type { ConsoleTarget } from '../src/executor/console-resolver';
import { requestPath, routeUpgrades } from './upgrade-router';
import { DEFAULT_SEND_LIMITS, isDropped, limitedSend, type SendLimits } from './slow-consumer';

export const CONSOLE_CLOSE = {
  PROTOCOL: 4000,
  STREAM: 4011,
  DONE: 1000,
} as const;

export type ConsoleAuthorization = { ok: true } | { ok: false; reason: string };

export interface ConsoleStreamOptions {
  resolveBuild(tenant: string, buildUuid: string): Promise<ConsoleTarget>;
  /** Checks the token of the first message (when the tenant requires authentication). */
  authorize?(tenant: string, token: string | undefined): Promise<ConsoleAuthorization>;
  /**
   * Resolves when the access rules change (a reconfiguration): open streams are authorized
   * again with their token and closed like a refused request when no longer allowed.
   */
  accessChanges?(): Promise<void>;
  /** Path pattern whose first group is the (URL-encoded) tenant name. */
  path?: RegExp;
  pingIntervalMs?: number;
  /** Masks secret values in every line sent (they are masked when written too; this is defence in depth). */
  redact?: () => (text: string) => string;
  /** A client that does not read is dropped (docs/live.md#slow-consumers). */
  sendLimits?: SendLimits;
}

export interface ConsoleStreamServer {
  wss: WebSocketServer;
  /** Close every console socket and stop routing upgrades. */
  close(): Promise<void>;
}

const DEFAULT_PATH = /^\/api\/tenant\/([^/]+)\/console-stream$/;
const MAX_FRAME_BYTES = 64 * 1024;
const REASON_LIMIT = 123;

/** Serve console streams on `server` next to its other WebSocket endpoints. */
export function attachConsoleStream(server: Server, options: ConsoleStreamOptions): ConsoleStreamServer {
  const pattern = options.path ?? DEFAULT_PATH;
  const wss = new WebSocketServer({ noServer: true });
  const tenantOf = (req: IncomingMessage): string | null => {
    const match = pattern.exec(requestPath(req));
    if (!match) {
      return null;
    }
    try {
      return decodeURIComponent(match[1]);
    } catch {
      return null;
    }
  };
  const unroute = routeUpgrades(
    server,
    (req) => pattern.test(requestPath(req)),
    (req, socket, head) => {
      const tenant = tenantOf(req);
      if (tenant === null || req.method !== 'GET') {
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => serveConsole(ws, tenant, options));
    },
  );
  return {
    wss,
    close: async () => {
      unroute();
      for (const client of wss.clients) {
        client.close(1001, 'Server shutting down');
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function serveConsole(ws: WebSocket, tenant: string, options: ConsoleStreamOptions): void {
  const stop = new AbortController();
  const ping = setInterval(() => ws.ping(), options.pingIntervalMs ?? 20_000);
  ping.unref();
  ws.on('close', () => {
    clearInterval(ping);
    stop.abort();
  });
  ws.once('message', (data, isBinary) => {
    void handleRequest(ws, tenant, isBinary ? null : data.toString(), options, stop.signal).catch(() =>
      close(ws, CONSOLE_CLOSE.STREAM, 'Unknown error'),
    );
  });
}

async function handleRequest(
  ws: WebSocket,
  tenant: string,
  text: string | null,
  options: ConsoleStreamOptions,
  signal: AbortSignal,
): Promise<void> {
  const request = parseRequest(text);
  if (request === null) {
    close(ws, CONSOLE_CLOSE.PROTOCOL, 'Invalid request payload');
    return;
  }
  if (options.authorize) {
    const token = typeof request.token === 'string' ? request.token : undefined;
    const auth = await options.authorize(tenant, token);
    if (!auth.ok) {
      close(ws, CONSOLE_CLOSE.PROTOCOL, auth.reason);
      return;
    }
    if (options.accessChanges) {
      void recheckOnAccessChanges(
        ws,
        signal,
        options.accessChanges,
        () => options.authorize?.(tenant, token) ?? Promise.resolve({ ok: true }),
      );
    }
  }
  if (!('uuid' in request)) {
    close(ws, CONSOLE_CLOSE.PROTOCOL, "'uuid' missing from request payload");
    return;
  }
  if (!('logfile' in request)) {
    close(ws, CONSOLE_CLOSE.PROTOCOL, "'logfile' missing from request payload");
    return;
  }
  const target =
    typeof request.uuid === 'string'
      ? await options.resolveBuild(tenant, request.uuid)
      : ({ kind: 'not-found' } as const);
  switch (target.kind) {
    case 'not-found':
      close(ws, CONSOLE_CLOSE.STREAM, 'Build not found');
      return;
    case 'not-started':
      close(ws, CONSOLE_CLOSE.STREAM, 'Build did not start yet');
      return;
    case 'unavailable':
      close(ws, CONSOLE_CLOSE.STREAM, 'Error with log streaming');
      return;
    case 'live':
      await stream(ws, target.log.lines(1, signal), signal, options);
      break;
    case 'finished':
      await stream(ws, replayLogFile(target.file), signal, options);
      break;
  }
  if (!signal.aborted && !isDropped(ws)) {
    close(ws, CONSOLE_CLOSE.DONE, 'No more data');
  }
}

/** Authorizes the stream again at every access change until it ends; closes it when refused. */
async function recheckOnAccessChanges(
  ws: WebSocket,
  signal: AbortSignal,
  accessChanges: () => Promise<void>,
  authorize: () => Promise<ConsoleAuthorization>,
): Promise<void> {
  const ended = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  let changed = accessChanges();
  while (!signal.aborted) {
    await Promise.race([changed, ended]);
    if (signal.aborted) {
      return;
    }
    // Waits for the next change before checking: one made while the check runs is not missed.
    changed = accessChanges();
    const auth = await authorize().catch((): ConsoleAuthorization => ({ ok: false, reason: 'Authorization error' }));
    if (!auth.ok && !signal.aborted) {
      close(ws, CONSOLE_CLOSE.PROTOCOL, auth.reason);
      return;
    }
  }
}

function parseRequest(text: string | null): Record<string, unknown> | null {
  if (text === null) {
    return null;
  }
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Send batches of lines as text frames, waiting for each send so a slow client paces the
 * reading; a client that stops reading is dropped after the send timeout.
 */
async function stream(
  ws: WebSocket,
  batches: AsyncIterable<ConsoleLine[]>,
  signal: AbortSignal,
  options: Pick<ConsoleStreamOptions, 'redact' | 'sendLimits'>,
): Promise<void> {
  const limits = options.sendLimits ?? DEFAULT_SEND_LIMITS;
  for await (const batch of batches) {
    const mask = options.redact?.();
    for (const frame of frames(
      mask === undefined ? batch : batch.map((line) => ({ ...line, text: mask(line.text) })),
    )) {
      if (signal.aborted || isDropped(ws)) {
        return;
      }
      await limitedSend(ws, frame, limits);
    }
  }
}

function* frames(batch: ConsoleLine[]): Generator<string> {
  let frame = '';
  for (const line of batch) {
    const text = `${line.text}\n`;
    if (frame !== '' && Buffer.byteLength(frame) + Buffer.byteLength(text) > MAX_FRAME_BYTES) {
      yield frame;
      frame = '';
    }
    frame += text;
  }
  if (frame !== '') {
    yield frame;
  }
}

function close(ws: WebSocket, code: number, reason: string): void {
  ws.close(code, Buffer.from(reason).subarray(0, REASON_LIMIT).toString());
}
