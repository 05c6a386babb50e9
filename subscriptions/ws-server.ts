/**
 * graphql-ws on the same HTTP server and path as HTTP GraphQL. Protocol hygiene: keep-alive
 * pings, a deadline for `connection_init` (which carries the auth token in its payload), a cap
 * on message size and on concurrent subscriptions per connection. Parse, validate and limit
 * errors answer the one operation instead of closing the socket (docs/live.md#authentication-and-protocol).
 */
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type GraphQLSchema, type ValidationRule } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { sharedMessageParts, sharedResultPlaceholder } from './live/shared-serialisation';
import { DEFAULT_SEND_LIMITS, limitedSend, type SendLimits } from './slow-consumer';

/** Close code sent to clients when the server shuts down ("going away"). */
export const SHUTDOWN_CLOSE_CODE = 1001;

export interface WebSocketLimits {
  /** Interval of server pings; a client that does not answer is disconnected. */
  keepAliveMs: number;
  /** Time a client has to send `connection_init` after connecting. */
  connectionInitWaitTimeoutMs: number;
  /** Concurrent operations per connection. */
  maxSubscriptionsPerConnection: number;
  /** Largest message a client may send (bytes). */
  maxPayloadBytes: number;
  /** What a socket may hold unsent before it is dropped as a slow consumer (docs/live.md#slow-consumers). */
  send: SendLimits;
}

/** Limits as options: any of them, send limits field by field. */
export type WebSocketOptions = Partial<Omit<WebSocketLimits, 'send'>> & { send?: Partial<SendLimits> };

export const DEFAULT_WEB_SOCKET_LIMITS: WebSocketLimits = {
  keepAliveMs: 12_000,
  connectionInitWaitTimeoutMs: 3_000,
  maxSubscriptionsPerConnection: 100,
  maxPayloadBytes: 64 * 1024,
  send: DEFAULT_SEND_LIMITS,
};

/** The parse and validate functions of an enveloped yoga instance. */
export interface OperationParsing {
  schema: GraphQLSchema;
  parse(source: string): DocumentNode;
  validate(schema: GraphQLSchema, document: DocumentNode, rules?: readonly ValidationRule[]): readonly GraphQLError[];
}

/**
 * Parses and validates one operation with the deployment's limits (depth, cost, size,
 * introspection); returns errors for that operation instead of throwing.
 */
export type OperationChecker = (
  env: OperationParsing,
  query: string | undefined,
) => { document: DocumentNode } | { errors: GraphQLError[] };

const defaultChecker: OperationChecker = (env, query) => {
  try {
    const document = env.parse(query ?? '');
    const errors = env.validate(env.schema, document);
    return errors.length > 0 ? { errors: [...errors] } : { document };
  } catch (err) {
    return { errors: [err instanceof GraphQLError ? err : new GraphQLError('Invalid operation')] };
  }
};

export interface GraphQLWebSocketServer {
  wss: WebSocketServer;
  /** Close every socket with `SHUTDOWN_CLOSE_CODE` and stop accepting new ones. */
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server context type of any yoga instance
type AnyYoga = YogaServerInstance<any, any>;

/** Errors ws raises for a malformed or oversized frame from the peer (codes `WS_ERR_*`). */
function isClientFrameError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('WS_ERR_');
}

export function attachGraphQLWebSocket(
  server: http.Server,
  yoga: AnyYoga,
  path = '/graphql',
  limits: WebSocketOptions = {},
  checkOperation: OperationChecker = defaultChecker,
): GraphQLWebSocketServer {
  const settings: WebSocketLimits = {
    ...DEFAULT_WEB_SOCKET_LIMITS,
    ...limits,
    send: { ...DEFAULT_WEB_SOCKET_LIMITS.send, ...limits.send },
  };
  const wss = new WebSocketServer({ server, path, maxPayload: settings.maxPayloadBytes });
  wss.on('connection', (socket) => {
    // A frame the client got wrong (over maxPayload, bad opcode, ...) makes ws close the socket
    // with the matching code (1009, 1002, ...) and then emit 'error', which graphql-ws would
    // print with a stack trace as an "internal error". It is the client's fault and already
    // answered, so it is not passed on.
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    socket.emit = ((event: string | symbol, ...args: unknown[]) =>
      event === 'error' && isClientFrameError(args[0]) ? true : emit(event, ...args)) as typeof socket.emit;
    // Every message goes out under the socket's send limits. A shared result's JSON goes in
    // the middle of its message (see shared-serialisation.ts: the parts must be taken
    // synchronously, at this very send), as one fragment written without a copy.
    const send = socket.send.bind(socket) as (
      data: string | Buffer,
      options: { fin: boolean; binary: boolean },
      done?: (error?: Error) => void,
    ) => void;
    socket.send = ((data: string | Buffer, ...rest: unknown[]) => {
      const done = rest.find((arg): arg is (error?: Error) => void => typeof arg === 'function');
      const parts = typeof data === 'string' ? sharedMessageParts(data) : null;
      const binary = typeof data !== 'string';
      void limitedSend(socket, data, settings.send, (message, sent) => {
        if (parts === null) {
          send(message, { fin: true, binary }, sent);
          return;
        }
        send(parts.head, { fin: false, binary: false });
        send(parts.json, { fin: false, binary: false });
        send(parts.tail, { fin: true, binary: false }, sent);
      }).then(() => done?.());
    }) as typeof socket.send;
  });
  const disposable = useServer(
    {
      connectionInitWaitTimeout: settings.connectionInitWaitTimeoutMs,
      execute: (args) => (args as ExecutionArgs & { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) =>
        (args as ExecutionArgs & { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      // A result shared by every subscriber of an operation is stringified once (see the `connection` handler above).
      onNext: (_ctx, _id, _payload, _args, result) => sharedResultPlaceholder(result) as never,
      onSubscribe: async (ctx, _id, params) => {
        // graphql-ws has already reserved this operation's id, hence `>`.
        if (Object.keys(ctx.subscriptions).length > settings.maxSubscriptionsPerConnection) {
          return [
            new GraphQLError(
              `Too many operations on this connection (at most ${settings.maxSubscriptionsPerConnection})`,
              { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } },
            ),
          ];
        }
        const env = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          requestId: `ws-${randomUUID()}`,
        });
        const checked = checkOperation(env, params.query);
        if ('errors' in checked) {
          return checked.errors;
        }
        try {
          return {
            schema: env.schema,
            operationName: params.operationName,
            document: checked.document,
            variableValues: params.variables,
            contextValue: await env.contextFactory(),
            execute: env.execute,
            subscribe: env.subscribe,
          };
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError('Invalid operation')];
        }
      },
    },
    wss,
    settings.keepAliveMs,
  );
  return {
    wss,
    close: async () => {
      for (const client of wss.clients) {
        client.close(SHUTDOWN_CLOSE_CODE, 'Server shutting down');
      }
      await disposable.dispose();
    },
  };
}
