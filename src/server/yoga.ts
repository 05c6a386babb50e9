/** graphql-yoga over the Pothos schema; the context is built from Koa (HTTP) or graphql-ws (WebSocket). */
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { initContextCache } from '@pothos/core';
import type Koa from 'koa';
import { schema } from '../../schema';
import { useLiveSubscriptionEvents } from '../../subscriptions/live/shared-event-execution';
import { createContext, type GraphQLContext, type Principal, type Services } from '../../schema/context';
import type { Logger } from './logger';

/** What yoga receives as its server context: the Koa context on HTTP, or the graphql-ws context on WebSocket. */
export interface SluiceServerContext {
  koa?: Koa.Context;
  requestId?: string;
  /** graphql-ws `connection_init` payload (WebSocket only). */
  connectionParams?: Readonly<Record<string, unknown>>;
}

/** The bearer token of a request: `Authorization: Bearer ...` on HTTP, `connectionParams` on WebSocket. */
export function bearerToken(initial: SluiceServerContext): string | null {
  const params = initial.connectionParams;
  const fromParams = params?.authToken ?? params?.Authorization ?? params?.authorization;
  const header = typeof fromParams === 'string' ? fromParams : (initial.koa?.get('authorization') ?? '');
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (match) {
    return match[1] ?? null;
  }
  return typeof fromParams === 'string' && fromParams.length > 0 ? fromParams : null;
}

async function principalOf(services: Services, initial: SluiceServerContext): Promise<Principal | null> {
  const token = bearerToken(initial);
  if (token === null || !services.authenticate) {
    return null;
  }
  return services.authenticate(token);
}

export type SluiceYoga = YogaServerInstance<SluiceServerContext, GraphQLContext>;

export function buildYoga(services: Services, logger: Logger): SluiceYoga {
  return createYoga<SluiceServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: { title: 'Sluice GraphQL' },
    logging: {
      debug: (...args) => logger.debug({ args }, 'graphql'),
      info: (...args) => logger.info({ args }, 'graphql'),
      warn: (...args) => logger.warn({ args }, 'graphql'),
      error: (...args) => logger.error({ args }, 'graphql'),
    },
    context: async (initial) => createContext(services, initial.requestId ?? initial.koa?.state.requestId ?? 'ws', await principalOf(services, initial)),
    plugins: [
      // A subscription keeps its context; every event gets fresh Pothos caches (loaders, auth),
      // and identical operations share the result of a shared live event.
      useLiveSubscriptionEvents(() => initContextCache()),
    ],
  });
}
