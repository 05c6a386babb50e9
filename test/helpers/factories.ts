/**
 * Test factories for build history. They write through the store repositories, exactly as the
 * engine does, so tests never depend on a special production path. Times come from a counter
 * clock so data is deterministic.
 */
import type { Knex } from 'knex';
import type { BuildResult, BuildsetResult } from '../../src/model/results';
import {
  BuildRepository,
  type BuildRecord,
  type NewArtifact,
  type NewBuildEvent,
} from '../../src/store/repositories/builds';
import { BuildsetRepository, type BuildsetRecord } from '../../src/store/repositories/buildsets';
import type { NewRef, RefRecord } from '../../src/store/repositories/refs';
import {
  SystemEventRepository,
  type SystemEventRecord,
  type SystemEventType,
} from '../../src/store/repositories/system-events';

export interface BuildsetSpec {
  tenant?: string;
  pipeline?: string;
  refs?: NewRef[];
  eventId?: string;
  triggeredBy?: string;
}

export interface BuildSpec {
  jobName?: string;
  /** Index into the buildset's refs (default 0). */
  refIndex?: number;
  voting?: boolean;
  nodeset?: string | null;
  /** Omit (or null) to leave the build running. */
  result?: BuildResult | null;
  final?: boolean;
  held?: boolean;
  errorDetail?: string | null;
  logUrl?: string | null;
  artifacts?: NewArtifact[];
  provides?: string[];
  events?: NewBuildEvent[];
  /** The data the build returned. */
  resultData?: Record<string, unknown>;
  /** Build duration in seconds (default 60). */
  durationSeconds?: number;
}

export interface HistoryFactory {
  readonly builds: BuildRepository;
  readonly buildsets: BuildsetRepository;
  /** A started buildset with its refs and `triggered` event. */
  buildset(spec?: BuildsetSpec): Promise<{ buildset: BuildsetRecord; refs: RefRecord[] }>;
  /** A build of `buildset`, completed when `spec.result` is given. */
  build(buildset: { buildset: BuildsetRecord; refs: RefRecord[] }, spec?: BuildSpec): Promise<BuildRecord>;
  /** Ends a buildset with a result. */
  finish(buildset: BuildsetRecord, result: BuildsetResult, message?: string | null): Promise<BuildsetRecord>;
  systemEvent(tenant: string, eventType: SystemEventType, description?: string): Promise<SystemEventRecord>;
  /** The next tick of the factory clock. */
  tick(seconds?: number): Date;
}

/** Shared by every factory of the process so uuids stay unique across factories. */
let uuidSequence = 0;

/** A factory writing to `knex`; its clock starts at `start` and moves forward with every record. */
export function historyFactory(knex: Knex, start = new Date('2026-01-01T00:00:00Z')): HistoryFactory {
  const builds = new BuildRepository(knex);
  const buildsets = new BuildsetRepository(knex);
  const systemEvents = new SystemEventRepository(knex);
  let clock = start.getTime();
  const tick = (seconds = 1): Date => {
    clock += seconds * 1000;
    return new Date(clock);
  };
  const nextUuid = (prefix: string): string => {
    uuidSequence += 1;
    return `${prefix}${uuidSequence.toString(16).padStart(32 - prefix.length, '0')}`;
  };

  return {
    builds,
    buildsets,
    tick,
    buildset: (spec = {}) =>
      buildsets.create({
        uuid: nextUuid('b5'),
        tenant: spec.tenant ?? 'tenant-one',
        pipeline: spec.pipeline ?? 'gate',
        eventId: spec.eventId ?? nextUuid('e7'),
        eventTimestamp: tick(),
        refs: spec.refs ?? [defaultRef()],
        triggeredBy: spec.triggeredBy ?? 'Triggered by change org/project 1,1',
        at: tick(),
      }),
    build: async ({ buildset, refs }, spec = {}) => {
      const ref = refs[spec.refIndex ?? 0];
      const started = await builds.start({
        buildsetId: buildset.id,
        uuid: nextUuid('bd'),
        jobName: spec.jobName ?? 'project-test1',
        startTime: tick(),
        voting: spec.voting,
        nodeset: spec.nodeset === undefined ? 'test-nodeset' : spec.nodeset,
        refId: ref?.id ?? null,
      });
      if (spec.result === undefined || spec.result === null) {
        return started;
      }
      return builds.complete(started.id, {
        result: spec.result,
        endTime: tick(spec.durationSeconds ?? 60),
        errorDetail: spec.errorDetail,
        logUrl: spec.logUrl,
        final: spec.final,
        held: spec.held,
        artifacts: spec.artifacts,
        provides: spec.provides,
        events: spec.events,
        resultData: spec.resultData,
      });
    },
    finish: (buildset, result, message = null) => buildsets.finish(buildset.id, { result, message, at: tick() }),
    systemEvent: (tenant, eventType, description = `${eventType} happened`) =>
      systemEvents.record({ tenant, eventType, description, eventTime: tick() }),
  };
}

/** A change ref of org/project on master. */
export function defaultRef(overrides: Partial<NewRef> = {}): NewRef {
  return {
    project: 'org/project',
    ref: 'refs/changes/01/1/1',
    refUrl: 'https://review.example.com/1',
    change: 1,
    patchset: '1',
    branch: 'master',
    ...overrides,
  };
}
