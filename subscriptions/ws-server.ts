/**
 * graphql-ws on the same HTTP server and path as HTTP GraphQL. Parse and validate errors are
 * returned to the one operation instead of closing the socket (see the style guide, A2).
 */
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';

/** Close code sent to clients when the server shuts down ("going away"). */
export const SHUTDOWN_CLOSE_CODE = 1001;

export interface GraphQLWebSocketServer {
  wss: WebSocketServer;
  /** Close every socket with `SHUTDOWN_CLOSE_CODE` and stop accepting new ones. */
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the server context type of any yoga instance
type AnyYoga = YogaServerInstance<any, any>;

export function attachGraphQLWebSocket(server: http.Server, yoga: AnyYoga, path = '/graphql'): GraphQLWebSocketServer {
  const wss = new WebSocketServer({ server, path });
  const disposable = useServer(
    {
      execute: (args) => (args as ExecutionArgs & { execute: (a: ExecutionArgs) => unknown }).execute(args) as never,
      subscribe: (args) => (args as ExecutionArgs & { subscribe: (a: ExecutionArgs) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const env = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          requestId: `ws-${randomUUID()}`,
        });
        try {
          const document = env.parse(params.query);
          const errors = env.validate(env.schema, document);
          if (errors.length > 0) {
            return errors;
          }
          const args = {
            schema: env.schema,
            operationName: params.operationName,
            document,
            variableValues: params.variables,
            contextValue: await env.contextFactory(),
            execute: env.execute,
            subscribe: env.subscribe,
          };
          return args;
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError('Invalid operation')];
        }
      },
    },
    wss,
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
