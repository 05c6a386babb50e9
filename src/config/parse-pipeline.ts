/** `pipeline` objects (docs/project-configuration.md#pipelines); only config projects may define them. */
import { ConfigObjectError, ErrorName } from './config-error';
import { driverFor, validateReporter, validateRequirement, validateTrigger } from './drivers';
import { REPORTER_PHASES, type Pipeline, type ReporterConfig, type ReporterPhase } from './layout';
import type { ParseContext } from './parse-context';
import {
  checkKeys,
  optBool,
  optEnum,
  optInt,
  optNumber,
  optString,
  optStrList,
  requireMap,
  reqString,
} from './schema-helpers';

const PIPELINE_KEYS = new Set([
  'name',
  'manager',
  'trigger',
  'require',
  'reject',
  'allow-other-connections',
  'precedence',
  'supercedes',
  'description',
  'post-review',
  'dequeue-on-new-patchset',
  'flaky-retries',
  'flaky-threshold',
  'ignore-dependencies',
  'disable-after-consecutive-failures',
  'window',
  'window-floor',
  'window-ceiling',
  'window-increase-type',
  'window-increase-factor',
  'window-decrease-type',
  'window-decrease-factor',
  'success-message',
  'failure-message',
  'start-message',
  'enqueue-message',
  'no-jobs-message',
  'merge-conflict-message',
  'dequeue-message',
  'footer-message',
  ...REPORTER_PHASES,
]);

const MERGE_CONFLICT_MESSAGE =
  'Merge Failed.\n\nThis change or one of its cross-repo dependencies was unable to be automatically merged with the current state of its repository. Please rebase the change and upload a new patchset.';

export function parsePipeline(body: unknown, ctx: ParseContext): Pipeline {
  if (!ctx.sourceContext.trusted) {
    throw new ConfigObjectError(
      'Pipelines may not be defined in untrusted repos, they may only be defined in config repos.',
      ErrorName.pipelineForbidden,
    );
  }
  const map = requireMap(body, 'pipeline');
  checkKeys(map, PIPELINE_KEYS, ['name', 'manager', 'trigger']);
  const name = reqString(map, 'name');
  const manager = optEnum(map, 'manager', ['independent', 'dependent', 'serial', 'supercedent'] as const);
  if (manager === undefined) {
    throw new ConfigObjectError(`required key not provided @ data['manager']`, ErrorName.syntax, 'manager');
  }
  const connections = ctx.connections;
  const allowedTriggers = ctx.tenant.allowedTriggers;
  const allowedReporters = ctx.tenant.allowedReporters;
  const trigger = requireMap(map.trigger, 'trigger');
  const triggers = Object.entries(trigger).map(([key, value]) => {
    const driver = driverFor(key, connections, 'trigger');
    if (allowedTriggers !== undefined && !allowedTriggers.includes(key)) {
      throw new ConfigObjectError(`Unknown connection named "${key}".`, ErrorName.unknownConnection, 'trigger');
    }
    return { connection: key, driver, filters: validateTrigger(driver, value, 'trigger', ctx.warnings) };
  });
  const requirement = (key: 'require' | 'reject') => {
    if (map[key] === undefined || map[key] === null) {
      return [];
    }
    return Object.entries(requireMap(map[key], key)).map(([conn, value]) => {
      const driver = driverFor(conn, connections, key);
      return { connection: conn, driver, options: validateRequirement(driver, value, key, ctx.warnings) };
    });
  };
  const reporters = {} as Record<ReporterPhase, ReporterConfig[]>;
  for (const phase of REPORTER_PHASES) {
    const value = map[phase];
    const list: ReporterConfig[] = [];
    if (value !== undefined && value !== null) {
      for (const [conn, options] of Object.entries(requireMap(value, phase))) {
        const driver = driverFor(conn, connections, phase);
        if (allowedReporters !== undefined && !allowedReporters.includes(conn)) {
          throw new ConfigObjectError(`Unknown connection named "${conn}".`, ErrorName.unknownConnection, phase);
        }
        list.push({ connection: conn, driver, options: validateReporter(driver, options, phase, ctx.warnings) });
      }
    }
    reporters[phase] = list;
  }
  const windowFloor = optInt(map, 'window-floor', 1) ?? 3;
  const ceilingRaw = map['window-ceiling'];
  const windowCeiling =
    ceilingRaw === null || ceilingRaw === undefined ? null : (optInt(map, 'window-ceiling', 1) ?? null);
  if (windowCeiling !== null && windowCeiling < windowFloor) {
    throw new ConfigObjectError(
      'Pipeline window-ceiling may not be less than window-floor',
      ErrorName.unknown,
      'window-ceiling',
    );
  }
  return {
    name,
    manager,
    description: optString(map, 'description'),
    sourceContext: ctx.sourceContext,
    triggers,
    require: requirement('require'),
    reject: requirement('reject'),
    reporters,
    allowOtherConnections: optBool(map, 'allow-other-connections') ?? true,
    precedence: optEnum(map, 'precedence', ['high', 'normal', 'low'] as const) ?? 'normal',
    supercedes: optStrList(map, 'supercedes') ?? [],
    postReview: optBool(map, 'post-review') ?? false,
    dequeueOnNewPatchset: optBool(map, 'dequeue-on-new-patchset') ?? true,
    // Sluice: flake-aware gating, off unless set (docs/analytics.md#flake-aware-gating).
    flakyRetries: optInt(map, 'flaky-retries', 0) ?? 0,
    flakyThreshold: optNumber(map, 'flaky-threshold', 0, 1) ?? null,
    ignoreDependencies: optBool(map, 'ignore-dependencies') ?? false,
    disableAfterConsecutiveFailures: optInt(map, 'disable-after-consecutive-failures', 1),
    window: optInt(map, 'window', 0) ?? 20,
    windowFloor,
    windowCeiling,
    windowIncreaseType: optEnum(map, 'window-increase-type', ['linear', 'exponential'] as const) ?? 'linear',
    windowIncreaseFactor: optInt(map, 'window-increase-factor', 1) ?? 1,
    windowDecreaseType: optEnum(map, 'window-decrease-type', ['linear', 'exponential'] as const) ?? 'exponential',
    windowDecreaseFactor: optInt(map, 'window-decrease-factor', 1) ?? 2,
    messages: {
      success: optString(map, 'success-message') ?? 'Build succeeded.',
      failure: optString(map, 'failure-message') ?? 'Build failed.',
      start: optString(map, 'start-message') ?? 'Starting {pipeline.name} jobs.',
      enqueue: optString(map, 'enqueue-message') ?? '',
      noJobs: optString(map, 'no-jobs-message') ?? '',
      mergeConflict: optString(map, 'merge-conflict-message') ?? MERGE_CONFLICT_MESSAGE,
      dequeue: optString(map, 'dequeue-message') ?? 'Build canceled.',
      footer: optString(map, 'footer-message') ?? '',
    },
  };
}
