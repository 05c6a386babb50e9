/**
 * The timer driver (docs/project-configuration.md#triggers-reporters-and-requirements): pipelines
 * triggered at the times of a cron specification. The engine writes the `timer` events itself
 * at each fire time inside a pass (src/engine/scheduler/timers.ts), so the driver has rules and
 * a connection, and no runtime. Pipelines may name it without a configured connection.
 */
import { z } from 'zod';
import { CronSpecError, parseCron } from '../../model/cron';
import type { Driver } from '../driver';

export const timerConnection = z.object({ driver: z.literal('timer') }).strict();

/** Why `time` is no cron specification the timer can fire on, or undefined when it is one. */
function cronProblem(time: unknown): string | undefined {
  if (typeof time !== 'string') {
    return `Invalid timer specification ${JSON.stringify(time)}: expected a string of 5 to 7 cron fields`;
  }
  try {
    // The parser the scheduler fires with (src/model/cron.ts): what loads here also fires.
    parseCron(time);
    return undefined;
  } catch (err) {
    const detail = err instanceof CronSpecError ? err.detail : String(err);
    return `Invalid timer specification "${time}": ${detail}`;
  }
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
      const problem = cronProblem(filter.time);
      if (problem !== undefined) {
        read.fail(problem);
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
