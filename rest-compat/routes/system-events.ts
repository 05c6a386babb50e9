/**
 * `GET T/system-events` (Sluice-defined, current shape only; docs/rest.md#deliberate-differences-from-the-reference).
 */
import { RestSystemEventsDocument } from '../generated/graphql';
import { arrayOf, isoNaive as isoNaiveSchema, object, str } from '../json-schema';
import type { RestRoute } from '../route';
import { isoNaive, orNotFound } from '../wire';
import { paging, restEventType, systemEventTypes, text } from './params';

export const systemEventSchema = object({
  event_id: str(),
  event_time: isoNaiveSchema(),
  event_type: str('Lower case with dashes, e.g. config-errors-changed'),
  description: str(),
});

export const systemEventsRoute: RestRoute = {
  name: 'system_events',
  pattern: 'tenant/{tenant_name}/system-events',
  endpoints: {
    GET: {
      summary: 'Tenant-level happenings, newest first',
      auth: 'public',
      operations: ['RestSystemEvents'],
      query: { current: { event_type: text('Event type, e.g. reconfigured (repeatable)'), ...paging } },
      responses: { current: { status: 200, schema: arrayOf(systemEventSchema), description: 'System events' } },
      errors: { 400: 'Bad query parameter or unknown event type', 404: 'Tenant not found' },
      handler: async (req) => {
        const data = await req.run(RestSystemEventsDocument, {
          tenant: req.params.tenant_name,
          filter: { eventTypes: systemEventTypes('event_type', req.query.strings('event_type')) },
          first: req.query.integer('limit'),
          offset: req.query.integer('skip'),
        });
        const events = orNotFound(data.tenant, 'Tenant not found').systemEvents.nodes;
        return {
          body: events.map((event) => ({
            event_id: event.eventId,
            event_time: isoNaive(event.eventTime),
            event_type: restEventType(event.eventType),
            description: event.description,
          })),
        };
      },
    },
  },
};
