/**
 * The message an MQTT reporter publishes for an item report (docs/reporters.md#message): the
 * reference's shape, times in seconds since the epoch, and the topic with its `{name}` filled in.
 */
import type { ItemReport, ReportBuild } from '../../engine/ports/reporter';
import type { ChangeInfo } from '../../model/changes';
import { fillTemplate, reportFields, reportText, shortProjectName } from '../report-fields';

/** Seconds since the epoch of an ISO time (with milliseconds as a fraction), or null. */
function epochSeconds(iso: string | null | undefined): number | null {
  if (iso === null || iso === undefined) {
    return null;
  }
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms / 1000;
}

/**
 * The topic of a reporter's `topic` template; MQTT's wildcards `+` and `#`, which a topic one
 * publishes to may not hold, become `_` (a branch `feature+x`), as the reference replaces them.
 */
export function mqttTopic(template: string, report: ItemReport): string {
  return fillTemplate(template, reportFields(report)).replace(/[+#]/g, '_');
}

/** The fields of a change in a message (the top-level ones, each of `changes`, a build's `change`). */
function changeFields(change: ChangeInfo): Record<string, unknown> {
  return {
    project: shortProjectName(change.project),
    branch: change.branch ?? '',
    change_url: change.url ?? '',
    change: change.number !== null ? String(change.number) : '',
    patchset: change.patchset ?? '',
    commit_id: change.newrev ?? '',
    owner: change.owner ?? '',
    ref: change.ref,
  };
}

/** A build's times, logs, dashboard page and result. */
function buildFields(build: ReportBuild, buildUrl: (uuid: string) => string): Record<string, unknown> {
  return {
    uuid: build.uuid,
    start_time: epochSeconds(build.startTime),
    end_time: epochSeconds(build.endTime),
    execute_time: epochSeconds(build.executeTime),
    log_url: build.logUrl,
    web_url: buildUrl(build.uuid),
  };
}

/**
 * The message: `buildUrl` is the dashboard page of a build (`web_url`);
 * `includeReturnedData` adds each build's `returned_data`.
 */
export function mqttMessage(
  report: ItemReport,
  buildUrl: (uuid: string) => string,
  now: Date,
  includeReturnedData = false,
): Record<string, unknown> {
  const change = report.change;
  const changes = [...(report.otherChanges ?? []), change];
  const retryBuilds: Array<Record<string, unknown>> = [];
  const builds = report.jobs.map((job) => {
    const jobFields = { job_name: job.name, job_uuid: job.uuid ?? '', voting: job.voting };
    const entry: Record<string, unknown> = { ...jobFields };
    const build = job.build;
    if (build) {
      Object.assign(entry, {
        change: changeFields(changes[job.change ?? 0] ?? change),
        ...buildFields(build, buildUrl),
        result: job.result,
        dependencies: job.dependencies ?? [],
        job_dependencies: job.dependencyUuids ?? {},
        artifacts: build.artifacts.map((artifact) => ({ ...artifact, metadata: artifact.metadata ?? {} })),
        events: (build.events ?? []).map((event) => ({
          event_time: epochSeconds(event.eventTime),
          event_type: event.eventType,
          description: event.description,
        })),
      });
      if (includeReturnedData) {
        entry.returned_data = build.data;
      }
      for (const retried of job.retryBuilds ?? []) {
        retryBuilds.push({ ...jobFields, ...buildFields(retried, buildUrl), result: retried.result ?? null });
      }
    }
    return entry;
  });
  return {
    timestamp: now.getTime() / 1000,
    action: report.phase,
    tenant: report.tenant,
    zuul_ref: `Z${report.buildsetUuid.replaceAll('-', '')}`,
    pipeline: report.pipeline,
    queue: report.queue ?? '',
    changes: changes.map((each) => ({ ...changeFields(each), topic: changeTopic(each) })),
    ...changeFields(change),
    message: reportText(report),
    trigger_time: epochSeconds(report.item?.eventTimestamp),
    enqueue_time: epochSeconds(report.item?.enqueueTime),
    uuid: report.item?.uuid ?? '',
    zuul_event_id: report.item?.eventId ?? '',
    buildset: { uuid: report.buildsetUuid, result: report.result, builds, retry_builds: retryBuilds },
  };
}

/** A change's topic (Gerrit's); null for a change without one, `""` for a ref update, as the reference. */
function changeTopic(change: ChangeInfo): string | null {
  return change.number === null ? '' : (change.gerrit?.topic ?? null);
}
