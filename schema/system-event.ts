/** System events: tenant-level happenings (reconfigurations, admin actions, node holds...). */
import {
  SYSTEM_EVENT_TYPES,
  type SystemEventRecord,
  type SystemEventType as SystemEventTypeValue,
} from '../src/store/repositories/system-events';
import { readableRows } from './infra/access';
import { builder } from './infra/builder';
import { historyStore } from './infra/history-store';
import { parseDatabaseId } from './infra/pagination';
import { tenantListField } from './infra/tenant-list';
import { Tenant } from './tenant';

/** What each event type means (docs/rest.md#deliberate-differences-from-the-reference). */
const SYSTEM_EVENT_DESCRIPTIONS: Record<SystemEventTypeValue, string> = {
  reconfigured: 'The tenant layout was (re)loaded from configuration.',
  'config-errors-changed': 'The set of configuration errors of the tenant changed.',
  'tenant-state-changed': 'The tenant event queues were paused, resumed or set to discard.',
  'pipeline-state-changed': 'A pipeline changed state (normal, error) or was disabled or enabled.',
  enqueued: 'An administrator enqueued a change or ref (actor in the description).',
  dequeued: 'An administrator dequeued a change or ref (actor in the description).',
  promoted: 'An administrator promoted changes to the head of a queue (actor in the description).',
  'autohold-created': 'An autohold request was created.',
  'autohold-deleted': 'An autohold request was deleted.',
  'autohold-exhausted': 'An autohold request held its last node set and expired.',
  'flaky-retry':
    'A known-flaky job failed and was retried in place instead of failing its item (docs/analytics.md#flake-aware-gating).',
  'quarantine-changed':
    'A tenant admin added a job to the quarantine list or removed one (actor in the description; docs/analytics.md#quarantine).',
  'report-failed':
    'A report to a code-review system or notification service failed after its retries (docs/gating.md#engine-work).',
  'node-held': 'Nodes of a failed build were held for an autohold request.',
  'node-released': 'Held nodes were released.',
  'nodeset-request-canceled': 'A nodeset request was canceled.',
  'image-build-requested': 'A build of an image was requested.',
  'image-artifact-deleted': 'An image build artifact was deleted.',
  'image-upload-deleted': 'An image upload was deleted.',
  'image-upload-validated': 'An image upload was marked validated.',
  'component-started': 'A Sluice component (api, scheduler, executor, launcher) started.',
  'component-stopped': 'A Sluice component stopped.',
};

/** GraphQL enum name of an event type (`config-errors-changed` -> `CONFIG_ERRORS_CHANGED`). */
function enumName(type: SystemEventTypeValue): string {
  return type.toUpperCase().replace(/-/g, '_');
}

export const SystemEventType = builder.enumType('SystemEventType', {
  description: 'Kinds of system events; the REST API spells them in lower case with dashes (`config-errors-changed`).',
  values: Object.fromEntries(
    SYSTEM_EVENT_TYPES.map((type) => [enumName(type), { value: type, description: SYSTEM_EVENT_DESCRIPTIONS[type] }]),
  ),
});

export const SystemEvent = builder.loadableNodeRef('SystemEvent', {
  load: async (ids: number[], ctx) =>
    readableRows(ctx, await historyStore(ctx).systemEvents.findByIds(ids), (row) => row.tenant),
  sort: (event: SystemEventRecord) => event.id,
  id: { resolve: (event) => event.id, parse: parseDatabaseId },
});

SystemEvent.implement({
  description: 'A tenant-level happening, such as a reconfiguration or an administrator action.',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { nullable: false, description: 'Database id of the event.' }),
    eventId: t.exposeString('eventId', {
      nullable: false,
      description: 'Event id (32 hex characters), as in the REST `event_id`.',
    }),
    eventType: t.field({
      type: SystemEventType,
      nullable: false,
      description: 'Kind of event.',
      resolve: (event) => event.eventType,
    }),
    eventTime: t.expose('eventTime', { type: 'DateTime', nullable: false, description: 'When it happened.' }),
    description: t.exposeString('description', { nullable: false, description: 'Human-readable description.' }),
    data: t.expose('data', { type: 'JSON', description: 'Structured details of the event; null when none.' }),
  }),
});

const SystemEventFilter = builder.inputType('SystemEventFilter', {
  description: 'Filters of system events; every field is optional.',
  fields: (t) => ({
    eventTypes: t.field({ type: [SystemEventType], description: "Only these kinds of event (OR'ed)." }),
  }),
});

builder.objectField(Tenant, 'systemEvents', (t) =>
  tenantListField(t, {
    name: 'SystemEvent',
    type: SystemEvent,
    filter: SystemEventFilter,
    texts: {
      field: 'System events of the tenant.',
      filter: 'Which events to list; all when absent.',
      page: 'A page of system events, newest first.',
      item: 'A system event',
      totalCount: 'Number of events matching the filter, on all pages (counted only when selected).',
    },
    rows: (ctx, tenant, filter) => {
      const { systemEvents } = historyStore(ctx);
      return {
        list: (page) => systemEvents.listPage(tenant, filter, page),
        count: () => systemEvents.count(tenant, filter),
      };
    },
  }),
);
