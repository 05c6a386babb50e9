/** The build-history repositories for a request, created once per set of services. */
import { BuildRepository } from '../../src/store/repositories/builds';
import { BuildsetRepository } from '../../src/store/repositories/buildsets';
import { RefRepository } from '../../src/store/repositories/refs';
import { SystemEventRepository } from '../../src/store/repositories/system-events';
import { perServices } from './context';

export interface HistoryStore {
  builds: BuildRepository;
  buildsets: BuildsetRepository;
  refs: RefRepository;
  systemEvents: SystemEventRepository;
}

/** Repositories over the request's database; they hold no per-request state. */
export const historyStore = perServices((knex): HistoryStore => ({
  builds: new BuildRepository(knex),
  buildsets: new BuildsetRepository(knex),
  refs: new RefRepository(knex),
  systemEvents: new SystemEventRepository(knex),
}));
