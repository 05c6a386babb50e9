/**
 * Lifecycle and result enums of builds and buildsets. `status` says where a record is in its
 * life; `result` says how it ended and stays null until then (spec/engine.md §3.1–§3.2).
 */
import { BUILD_RESULTS, BUILDSET_RESULTS } from '../src/model/results';
import type { BuildRecord } from '../src/store/repositories/builds';
import type { BuildsetRecord } from '../src/store/repositories/buildsets';
import { builder } from './infra/builder';

export type BuildStatusValue = 'QUEUED' | 'RUNNING' | 'COMPLETED';
export type BuildsetStatusValue = 'RUNNING' | 'COMPLETED';

/** Enum values with the model's descriptions; the keys are exactly those of `descriptions`. */
function describedValues<K extends string>(descriptions: Record<K, string>): Record<K, { description: string }> {
  const entries = Object.entries<string>(descriptions).map(([name, description]) => [name, { description }]);
  return Object.fromEntries(entries) as Record<K, { description: string }>;
}

export const BuildResult = builder.enumType('BuildResult', {
  description: 'How a build ended (spec/engine.md §3.1). Null on a build that has not completed.',
  values: describedValues(BUILD_RESULTS),
});

export const BuildsetResult = builder.enumType('BuildsetResult', {
  description: 'How a buildset ended (spec/engine.md §3.2). Null on a buildset still running.',
  values: describedValues(BUILDSET_RESULTS),
});

export const BuildStatus = builder.enumType('BuildStatus', {
  description: 'Where a build is in its life; independent of its result.',
  values: {
    QUEUED: { description: 'Recorded but not started yet (no start time, no result).' },
    RUNNING: { description: 'Started and without a result yet.' },
    COMPLETED: { description: 'Finished; `result` says how.' },
  } as const,
});

export const BuildsetStatus = builder.enumType('BuildsetStatus', {
  description: 'Where a buildset is in its life; independent of its result.',
  values: {
    RUNNING: { description: 'Its builds are running or waiting; no result has been reported.' },
    COMPLETED: { description: 'Reported or dequeued; `result` says how.' },
  } as const,
});

/** Lifecycle of a build from its stored columns. */
export function buildStatus(build: Pick<BuildRecord, 'result' | 'startTime'>): BuildStatusValue {
  if (build.result !== null) {
    return 'COMPLETED';
  }
  return build.startTime === null ? 'QUEUED' : 'RUNNING';
}

/** Lifecycle of a buildset from its stored columns. */
export function buildsetStatus(buildset: Pick<BuildsetRecord, 'result'>): BuildsetStatusValue {
  return buildset.result === null ? 'RUNNING' : 'COMPLETED';
}
