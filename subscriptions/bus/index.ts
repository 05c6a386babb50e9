/**
 * Chooses the bus: Redis pub/sub when `redis.url` is set; PostgreSQL LISTEN/NOTIFY when the store
 * is a PostgreSQL server (processes sharing it see each other's events); in-process otherwise
 * (embedded PGlite is one process anyway).
 */
import type { ServiceConfig } from '../../src/config/service';
import type { EventBus } from './event-bus';
import { InProcessBus } from './in-process';
import { PostgresBus } from './pg-bus';
import { RedisBus } from './redis-bus';

export interface EventBusOptions {
  /** Told about connection problems of the bus (logged; they never end the process). */
  onError?: (error: unknown, link: string) => void;
}

export function createEventBus(config: ServiceConfig, options: EventBusOptions = {}): EventBus {
  if (config.redis?.url) {
    return new RedisBus(config.redis.url, config.redis.channelPrefix);
  }
  if (config.database.url) {
    return new PostgresBus(config.database.url, {
      applicationName: config.database.applicationName,
      onError: options.onError,
    });
  }
  return new InProcessBus();
}
