/**
 * Every system event, to the subscribers of its tenant, once each and with no gaps: a
 * `TableFeed` over the `system_events` table (how it follows the table: table-feed.ts).
 */
import type { SystemEventRecord } from '../../src/store/repositories/system-events';
import type { SystemEventItem } from '../../schema/infra/live-feeds';
import { TableFeed, type TableFeedOptions, type TableFeedStore } from './table-feed';

export type SystemEventStore = TableFeedStore<SystemEventRecord>;
export type SystemEventFeedOptions = TableFeedOptions;

export class SystemEventFeed extends TableFeed<SystemEventRecord, SystemEventItem> {
  constructor(
    store: SystemEventStore,
    options: Partial<SystemEventFeedOptions> = {},
    now: () => number = Date.now,
    onError: (error: unknown) => void = () => undefined,
  ) {
    super(
      store,
      {
        keysOf: (record) => (record.tenant === null ? [] : [record.tenant]),
        item: (record) => ({ kind: 'event', tick: { shared: true, record } }),
        overflow: (tenant) => ({ kind: 'overflow', tenant }),
      },
      options,
      now,
      onError,
    );
  }
}
