/**
 * The duplicate-definition rules shared by nodesets, secrets, semaphores, queues and launcher
 * objects: a name may be defined again only by the same project on another branch, and only
 * with the same definition.
 */
import { ConfigObjectError, ErrorName, type SourceContext } from './config-error';
import type { ParseContext } from './parse-context';

/** Adds `value` to `map` unless a definition of its name conflicts (then throws a ConfigObjectError). */
export function addUnique<T extends { name: string; sourceContext?: SourceContext }>(
  type: string,
  map: Map<string, T>,
  value: T,
  ctx: ParseContext,
  same: (a: T, b: T) => boolean,
): void {
  const existing = map.get(value.name);
  if (existing === undefined) {
    map.set(value.name, value);
    return;
  }
  const previous = existing.sourceContext;
  if (previous === undefined || previous.projectCanonicalName !== ctx.sourceContext.projectCanonicalName) {
    throw new ConfigObjectError(
      `${type} ${value.name} already defined in project ${previous?.projectName ?? '(tenant)'}`,
      ErrorName.unknown,
      'name',
    );
  }
  if (previous.branch === ctx.sourceContext.branch) {
    throw new ConfigObjectError(`${type} ${value.name} already defined`, ErrorName.unknown, 'name');
  }
  if (!same(existing, value)) {
    throw new ConfigObjectError(
      `${type} ${value.name} does not match existing definition in branch ${previous.branch}`,
      ErrorName.unknown,
      'name',
    );
  }
}
