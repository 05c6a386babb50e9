/** graphql-yoga over the Pothos schema; the context is built from Koa (HTTP) or graphql-ws (WebSocket). */
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type Koa from 'koa';
import { schema } from '../../schema';
import { createContext, type GraphQLContext, type Services } from '../../schema/context';
import type { Logger } from './logger';

/** What yoga receives as its server context: the Koa context on HTTP, or the graphql-ws context on WebSocket. */
export interface SluiceServerContext {
  koa?: Koa.Context;
  requestId?: string;
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
    context: (initial) => createContext(services, initial.requestId ?? initial.koa?.state.requestId ?? 'ws'),
  });
}
