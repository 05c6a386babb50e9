/**
 * The WebSocket endpoints on the HTTP server: graphql-ws on yoga's endpoint, and the console
 * stream when this process runs an executor.
 */
import type http from 'node:http';
import { attachConsoleStream } from '../../subscriptions/console-websocket';
import { attachGraphQLWebSocket, type WebSocketOptions } from '../../subscriptions/ws-server';
import { DEFAULT_SEND_LIMITS, type SendLimits } from '../../subscriptions/slow-consumer';
import type { AppServices } from './app-services';
import { consoleStreamAuthorizer } from './console-auth';
import { parseAndValidateForSubscription, webSocketMaxPayload } from './graphql-hardening';
import type { SluiceYoga } from './yoga';

export interface WebSockets {
  /** Open connections by endpoint (docs/operations.md#metrics). */
  connections(): { graphql: number; console: number };
  close(): Promise<void>;
}

/**
 * The send limits of every stream to a client (graphql-ws, the console stream, GraphQL over
 * server-sent events): `graphql.maxSocketBufferBytes`, the defaults, then the app's overrides
 * (docs/live.md#slow-consumers).
 */
export function sendLimitsOf(
  app: Pick<AppServices, 'config' | 'logger'>,
  limits: WebSocketOptions | undefined,
  transport: string,
): SendLimits {
  return {
    ...DEFAULT_SEND_LIMITS,
    maxBufferedBytes: app.config.graphql.maxSocketBufferBytes,
    onDrop: ({ bufferedBytes, reason }) =>
      app.logger.warn(`${transport} client dropped (${reason}; ${bufferedBytes} bytes unsent)`),
    ...limits?.send,
  };
}

export function attachWebSockets(
  httpServer: http.Server,
  yoga: SluiceYoga,
  app: Pick<AppServices, 'config' | 'roles' | 'auth' | 'services' | 'secretRedactor' | 'logger'>,
  limits: WebSocketOptions | undefined,
): WebSockets {
  const { config, roles, auth } = app;
  const send = sendLimitsOf(app, limits, 'WebSocket');
  const graphqlWs = attachGraphQLWebSocket(
    httpServer,
    yoga,
    yoga.graphqlEndpoint,
    { maxPayloadBytes: webSocketMaxPayload(config.graphql), ...limits, send },
    (env, query) => parseAndValidateForSubscription(env, query, config.graphql),
  );
  const consoleStream = roles
    ? attachConsoleStream(httpServer, {
        resolveBuild: roles.executor.resolveConsole,
        authorize: consoleStreamAuthorizer(app.services.auth),
        accessChanges:
          auth.services.policyChanges === undefined
            ? undefined
            : () => auth.services.policyChanges?.next() ?? Promise.resolve(),
        redact: () => app.secretRedactor().redact,
        sendLimits: send,
      })
    : undefined;
  return {
    connections: () => ({ graphql: graphqlWs.wss.clients.size, console: consoleStream?.wss.clients.size ?? 0 }),
    close: async () => {
      await graphqlWs.close();
      await consoleStream?.close();
    },
  };
}
