/**
 * Live tenant status (docs/rest.md#status-document) and the tenant event-queue state
 * (docs/rest.md#deliberate-differences-from-the-reference, docs/rest.md#tenant-event-queue-state). Both shapes come
 * from the same `TenantStatus` query; records/status.ts holds the mappers.
 */
import {
  RestStatusChangeDocument,
  RestStatusDocument,
  RestStatusVersionDocument,
  RestTenantStateDocument,
  RestTenantStateSetDocument,
} from '../generated/graphql';
import { arrayOf, bool, nullable, object, str } from '../json-schema';
import {
  currentItem,
  currentItemSchema,
  currentStatus,
  currentStatusSchema,
  earlierStatus,
  earlierStatusSchema,
  tenantState,
  tenantStateSchema,
} from '../records/status';
import type { RestRoute } from '../route';
import { notFound } from '../errors';
import { orNotFound, orTypedError } from '../wire';

const TENANT_404 = { 404: 'Tenant not found' };
const REASON_MAX_LENGTH = 4096;

interface TypedResult {
  __typename: string;
}

/** The `TenantStatus` member of `Tenant.status`; null when the engine has not loaded the tenant. */
function loadedStatus<T extends TypedResult>(status: T | null): Extract<T, { __typename: 'TenantStatus' }> | null {
  return status !== null && status.__typename === 'TenantStatus'
    ? (status as Extract<T, { __typename: 'TenantStatus' }>)
    : null;
}

/** `Www, DD Mon YYYY HH:MM:SS GMT` (docs/rest.md#caching-headers). */
const httpDate = (date: Date): string => date.toUTCString();

export const statusRoute: RestRoute = {
  name: 'status',
  pattern: 'tenant/{tenant_name}/status',
  endpoints: {
    GET: {
      summary: 'Live status of the tenant: pipelines, queues, items and jobs',
      auth: 'public',
      operations: ['RestStatusVersion', 'RestStatus'],
      responses: {
        current: {
          status: 200,
          schema: currentStatusSchema,
          description: 'Tenant status document (docs/rest.md#status-document)',
        },
        earlier: {
          status: 200,
          schema: earlierStatusSchema,
          description: 'Earlier tenant status document (docs/rest.md#earlier-status-document)',
        },
      },
      errors: { 404: 'Tenant not found; current shape: Tenant not loaded while the engine has no layout for it' },
      headers: { 'Cache-Control': 'public, max-age=1' },
      handler: async (req) => {
        const tenantName = req.params.tenant_name;
        const version = await req.run(RestStatusVersionDocument, { tenant: tenantName });
        const loaded = loadedStatus(orNotFound(version.tenant, 'Tenant not found').status);
        const lastModified = { 'Last-Modified': httpDate(new Date()) };
        if (loaded === null) {
          if (req.shape === 'earlier') {
            // The earlier reference answered a tenant it had not loaded yet with this document.
            return { body: { message: `Tenant ${tenantName} isn't ready`, code: 204 }, headers: lastModified };
          }
          throw notFound('Tenant not loaded');
        }
        // One body per status version and shape, however many pollers ask (docs/live.md#status-computation).
        const key = `${tenantName}\n${req.shape}\n${loaded.sequence}\n${String(loaded.producedAt)}`;
        const body = await req.serialized(key, async () => {
          const data = await req.run(RestStatusDocument, { tenant: tenantName });
          const status = loadedStatus(orNotFound(data.tenant, 'Tenant not found').status);
          if (status === null) {
            throw notFound('Tenant not loaded');
          }
          return req.shape === 'earlier' ? earlierStatus(status) : currentStatus(status);
        });
        return { body, headers: lastModified };
      },
    },
  },
};

export const statusChangeRoute: RestRoute = {
  name: 'status_change',
  pattern: 'tenant/{tenant_name}/status/change/{change}',
  endpoints: {
    GET: {
      summary: 'Status items (all pipelines) one of whose refs is the change; empty when none',
      auth: 'public',
      operations: ['RestStatusChange'],
      responses: {
        current: { status: 200, schema: arrayOf(currentItemSchema), description: 'Status items in status order' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const data = await req.run(RestStatusChangeDocument, {
          tenant: req.params.tenant_name,
          change: req.params.change,
        });
        const status = loadedStatus(orNotFound(data.tenant, 'Tenant not found').status);
        return { body: status === null ? [] : status.changeItems.map(currentItem) };
      },
    },
  },
};

/**
 * Python truthiness of a JSON value, as the reference coerces the state flags (docs/rest.md#tenant-event-queue-state).
 */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) {
    return value.length > 0;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.keys(value).length > 0;
  }
  return Boolean(value);
}

const flagOrKeep = (body: Record<string, unknown>, key: string): boolean | undefined =>
  Object.hasOwn(body, key) ? truthy(body[key]) : undefined;

/**
 * docs/rest.md#tenant-event-queue-state: a truthy reason is turned into text and cut to 4096 characters; anything else
 * clears it.
 */
function reasonOf(value: unknown): string | null {
  if (!truthy(value)) {
    return null;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.slice(0, REASON_MAX_LENGTH);
}

export const stateRoute: RestRoute = {
  name: 'state',
  pattern: 'tenant/{tenant_name}/state',
  endpoints: {
    GET: {
      summary: 'Tenant event-queue state (pause and discard flags with a reason)',
      auth: 'public',
      operations: ['RestTenantState'],
      responses: { current: { status: 200, schema: tenantStateSchema, description: 'Event-queue state' } },
      errors: { 404: 'Tenant not found, or Tenant not loaded' },
      handler: async (req) => {
        const data = await req.run(RestTenantStateDocument, { tenant: req.params.tenant_name });
        const status = loadedStatus(orNotFound(data.tenant, 'Tenant not found').status);
        if (status === null) {
          throw notFound('Tenant not loaded');
        }
        return { body: tenantState(status.state) };
      },
    },
    POST: {
      summary:
        'Pause, resume or discard the tenant event queues; omitted flags keep their value, the reason is replaced',
      auth: 'admin',
      operations: ['RestTenantStateSet'],
      body: {
        required: true,
        freeText: ['reason'],
        schema: object(
          {},
          {
            trigger_queue_discarding: bool(),
            trigger_queue_paused: bool(),
            result_queue_paused: bool(),
            reason: nullable(str('At most 4096 characters are kept')),
          },
        ),
      },
      responses: { current: { status: 200, schema: { type: 'null' }, description: '`null`' } },
      errors: {
        400: 'Invalid JSON document',
        401: 'No token',
        403: 'Not a tenant admin',
        ...TENANT_404,
        415: 'Not JSON',
      },
      handler: async (req) => {
        const data = await req.run(RestTenantStateSetDocument, {
          input: {
            tenant: req.params.tenant_name,
            triggerQueueDiscarding: flagOrKeep(req.body, 'trigger_queue_discarding'),
            triggerQueuePaused: flagOrKeep(req.body, 'trigger_queue_paused'),
            resultQueuePaused: flagOrKeep(req.body, 'result_queue_paused'),
            reason: reasonOf(req.body.reason),
          },
        });
        orTypedError(data.tenantStateSet, 'Tenant not found');
        return { body: null };
      },
    },
  },
};
