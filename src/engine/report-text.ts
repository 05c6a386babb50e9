/** Report texts (docs/gating.md#reporting): messages and job lines. */
import type { EnginePipeline } from './ports/layout';
import type { ChangeInfo } from '../model/changes';
import type { ItemState } from '../model/pipeline-state';

/** Elapsed time as `Xh MMm SSs`, `Mm SSs` or `Ss`. */
export function formatElapsed(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  if (hours > 0) {
    return `${hours}h ${String(minutes).padStart(2, '0')}m ${String(secs).padStart(2, '0')}s`;
  }
  if (minutes > 0) {
    return `${minutes}m ${String(secs).padStart(2, '0')}s`;
  }
  return `${secs}s`;
}

/** One line per job: `- <name> <url> : <RESULT> <detail> in <elapsed> (non-voting)` (or `(quarantined)`). */
export function jobLines(item: ItemState): string[] {
  const lines: string[] = [];
  let skippedByChildJobs = 0;
  for (const job of item.buildset.jobs) {
    const build = job.build;
    if (build?.result === 'SKIPPED' && (build.errorDetail ?? '').startsWith('Skipped due to child_jobs')) {
      skippedByChildJobs += 1;
      continue;
    }
    const parts = [`- ${job.job.name}`];
    if (build?.logUrl) {
      parts.push(build.logUrl);
    }
    let text = `${parts.join(' ')} : ${build?.result ?? 'NOT RUN'}`;
    if (build?.errorDetail) {
      text += ` ${build.errorDetail}`;
    }
    if (build?.startTime && build.endTime) {
      text += ` in ${formatElapsed((Date.parse(build.endTime) - Date.parse(build.startTime)) / 1000)}`;
    }
    if (!job.job.voting) {
      text += ' (non-voting)';
    } else if (job.quarantined === true) {
      // Sluice: reported but not blocking (docs/analytics.md#quarantine).
      text += ' (quarantined)';
    }
    lines.push(text);
  }
  if (skippedByChildJobs > 0) {
    lines.push(`Skipped ${skippedByChildJobs} job${skippedByChildJobs === 1 ? '' : 's'}`);
  }
  return lines;
}

function withFooter(pipeline: EnginePipeline, text: string): string {
  return pipeline.messages.footer ? `${text}\n\n${pipeline.messages.footer}` : text;
}

/** The report of a change that could not be enqueued: a failure with the reason as a warning. */
export function formatNonEnqueuedReport(pipeline: EnginePipeline, reason: string): string {
  return withFooter(pipeline, withWarningBlock(pipeline.messages.failure, [reason]));
}

export type ReportAction = 'success' | 'failure' | 'merge-conflict' | 'config-error' | 'no-jobs' | 'dequeue';

/** `Warning:` and its lines after the text, as the reference appends a block of warnings. */
function withWarningBlock(text: string, warnings: readonly string[]): string {
  return warnings.length === 0 ? text : `${text}\n\nWarning:\n  ${warnings.join('\n  ')}`;
}

/**
 * The report message of an item for the chosen action, as the reference appends to it: the first
 * warning of its speculative layout (docs/gating.md#speculative-layouts), then a block of the
 * warnings its builds returned or the executor added, then the footer.
 */
export function formatReport(pipeline: EnginePipeline, item: ItemState, action: ReportAction): string {
  const warning = item.buildset.configWarning;
  const text = withWarningBlock(reportBody(pipeline, item, action), warning ? [warning] : []);
  return withFooter(pipeline, withWarningBlock(text, item.buildset.warningMessages ?? []));
}

/** The report message of an item for the chosen action, before its warning and footer. */
function reportBody(pipeline: EnginePipeline, item: ItemState, action: ReportAction): string {
  switch (action) {
    case 'success':
      return [pipeline.messages.success, '', ...jobLines(item)].join('\n');
    case 'merge-conflict':
      return pipeline.messages.mergeConflict;
    case 'config-error':
      return item.buildset.configError ?? 'Unknown configuration error';
    case 'no-jobs':
      return pipeline.messages.noJobs;
    case 'dequeue':
      return [pipeline.messages.dequeue, '', ...jobLines(item)].join('\n');
    case 'failure':
      if (item.dequeuedMissingRequirements) {
        return `This change is unable to merge due to a missing merge requirement.\n\n${item.dequeuedMissingRequirements}`;
      }
      if (item.dequeuedNeedingChange !== null) {
        return `This change depends on a change that failed to merge.\n\n${item.dequeuedNeedingChange}`;
      }
      if (item.changes.length > 1) {
        // The reference's wording for a cycle, with the changes it holds.
        const related = item.changes.map((change) => `  ${change.url ?? `${change.project} ${changeIdOf(change)}`}`);
        return [
          'This change is part of a dependency cycle that failed.',
          '',
          ...jobLines(item),
          '',
          'Related changes:',
          ...related,
        ].join('\n');
      }
      return [pipeline.messages.failure, '', ...jobLines(item)].join('\n');
  }
}

function changeIdOf(change: ChangeInfo): string {
  return `${change.number ?? ''},${change.patchset ?? ''}`;
}

/** "Triggered by" description of a change (docs/gating.md#build-history). */
export function describeTrigger(change: ChangeInfo): string {
  if (change.kind === 'change') {
    return `GitChange ${change.project} ${change.number ?? ''},${change.patchset ?? ''}`;
  }
  const kind = change.kind === 'branch' ? 'Branch' : change.kind === 'tag' ? 'Tag' : 'Ref';
  return `${kind} ${change.project} ${change.ref} updated ${change.oldrev ?? ''}..${change.newrev ?? ''}`;
}
