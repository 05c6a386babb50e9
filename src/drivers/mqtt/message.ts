/**
 * The message an MQTT reporter publishes for an item report (docs/reporters.md#message): the
 * reference's shape, times in seconds since the epoch, and the topic with its `{name}` filled in.
 */
import type { ItemReport } from '../../engine/ports/reporter';
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
  const builds = report.jobs.map((job) => {
    const entry: Record<string, unknown> = { job_name: job.name, voting: job.voting };
    const build = job.build;
    if (build) {
      Object.assign(entry, {
        uuid: build.uuid,
        start_time: epochSeconds(build.startTime),
        end_time: epochSeconds(build.endTime),
        execute_time: epochSeconds(build.executeTime),
        log_url: build.logUrl,
        web_url: buildUrl(build.uuid),
        result: job.result,
        dependencies: job.dependencies ?? [],
        artifacts: build.artifacts.map((artifact) => ({ ...artifact, metadata: artifact.metadata ?? {} })),
      });
      if (includeReturnedData) {
        entry.returned_data = build.data;
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
    project: shortProjectName(change.project),
    branch: change.branch ?? '',
    change_url: change.url ?? '',
    change: change.number !== null ? String(change.number) : '',
    patchset: change.patchset ?? '',
    commit_id: change.newrev ?? '',
    owner: change.owner ?? '',
    ref: change.ref,
    message: reportText(report),
    trigger_time: epochSeconds(report.item?.eventTimestamp),
    enqueue_time: epochSeconds(report.item?.enqueueTime),
    uuid: report.item?.uuid ?? '',
    zuul_event_id: report.item?.eventId ?? '',
    buildset: { uuid: report.buildsetUuid, result: report.result, builds },
  };
}
