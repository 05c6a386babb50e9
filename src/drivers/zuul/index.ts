/**
 * The zuul driver (docs/project-configuration.md#triggers-reporters-and-requirements): events the
 * engine and the launcher make themselves (`parent-change-enqueued`, `project-change-merged`,
 * `image-build`, `image-validate`; docs/launcher.md#images) as pipeline triggers, and the image
 * reporters. It has no connection and no runtime; pipelines name it directly.
 */
import type { Driver } from '../driver';

const ZUUL_EVENTS = ['parent-change-enqueued', 'project-change-merged', 'image-build', 'image-validate'];

function strings(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.filter((entry): entry is string => typeof entry === 'string');
}

export const zuulDriver = {
  name: 'zuul',
  implicit: true,
  triggers: {
    validate(filter, read, attribute) {
      read.keys(filter, ['event', 'pipeline', 'debug'], ['event'], `data['${attribute}']`);
      for (const event of read.strings(filter.event, attribute)) {
        if (!ZUUL_EVENTS.includes(event)) {
          read.fail(`Unknown zuul event "${event}"`);
        }
      }
      if (filter.pipeline !== undefined) {
        read.regexes(filter.pipeline);
      }
      read.bool(filter, 'debug');
    },
    compile(filter, connection) {
      const events = strings(filter.event).filter((event) => ZUUL_EVENTS.includes(event));
      const pipelines = strings(filter.pipeline);
      return {
        driver: 'zuul',
        connection,
        events,
        matches: ({ event }) => {
          if (!events.includes(event.type)) {
            return false;
          }
          // `pipeline` names the parent's pipelines of a `parent-change-enqueued` event.
          if (event.type === 'parent-change-enqueued' && pipelines.length > 0) {
            return event.parentPipeline !== undefined && pipelines.includes(event.parentPipeline);
          }
          return true;
        },
      };
    },
  },
  reporters: {
    validate(options, read, attribute) {
      read.keys(options, ['image-built', 'image-validated'], [], `data['${attribute}']`);
      read.bool(options, 'image-built');
      read.bool(options, 'image-validated');
    },
    compile: (options) => ({ imageValidated: options['image-validated'] === true }),
  },
} satisfies Driver;
