/** The build-history repositories for a request, created once per set of services. */
import { BuildRepository } from '../../src/store/repositories/builds';
import { BuildsetRepository } from '../../src/store/repositories/buildsets';
import { RefRepository } from '../../src/store/repositories/refs';
import { SystemEventRepository } from '../../src/store/repositories/system-events';
import type { GraphQLContext, Services } from './context';

export interface HistoryStore {
  builds: BuildRepository;
  buildsets: BuildsetRepository;
  refs: RefRepository;
  systemEvents: SystemEventRepository;
}

const stores = new WeakMap<Services, HistoryStore>();

/** Repositories over the request's database; they hold no per-request state. */
export function historyStore(ctx: GraphQLContext): HistoryStore {
  const existing = stores.get(ctx.services);
  if (existing) {
    return existing;
  }
  const { knex } = ctx.services;
  const store: HistoryStore = {
    builds: new BuildRepository(knex),
    buildsets: new BuildsetRepository(knex),
    refs: new RefRepository(knex),
    systemEvents: new SystemEventRepository(knex),
  };
  stores.set(ctx.services, store);
  return store;
}
