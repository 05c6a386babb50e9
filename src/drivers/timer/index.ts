/**
 * The timer driver (docs/project-configuration.md#triggers-reporters-and-requirements): pipelines
 * triggered at the times of a cron specification. The engine writes the `timer` events itself
 * at each fire time inside a pass (src/engine/scheduler/timers.ts), so the driver has rules and
 * a connection, and no runtime. Pipelines may name it without a configured connection.
 */
import { z } from 'zod';
import type { Driver } from '../driver';

export const timerConnection = z.object({ driver: z.literal('timer') }).strict();

const CRON_FIELD = /^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?(,(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/[0-9]+)?)*$/;

/** 5 cron fields, an optional 6th (seconds) and an optional 7th (jitter seconds). */
function validCron(spec: string): boolean {
  const fields = spec.trim().split(/\s+/);
  if (fields.length < 5 || fields.length > 7) {
    return false;
  }
  return fields.every((field) => CRON_FIELD.test(field));
}

export const timerDriver = {
  name: 'timer',
  implicit: true,
  connection: {
    schema: timerConnection,
    canonicalHostname: (name: string) => name,
  },
  triggers: {
    validate(filter, read, attribute) {
      read.keys(filter, ['time', 'dereference', 'debug'], ['time'], `data['${attribute}']`);
      const time = filter.time;
      if (typeof time !== 'string' || !validCron(time)) {
        read.fail(`Invalid timer specification "${String(time)}"`);
      }
      read.bool(filter, 'dereference');
      read.bool(filter, 'debug');
    },
    compile: (filter, connection) => ({
      driver: 'timer',
      connection,
      events: ['timer'],
      time: String(filter.time),
      // A timer event names the pipeline whose timer fired.
      matches: ({ event, pipeline }) => event.type === 'timer' && event.pipeline === pipeline,
    }),
  },
} satisfies Driver<z.infer<typeof timerConnection>>;
