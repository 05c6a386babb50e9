/**
 * Trigger events: the event's change is read and offered to every pipeline whose triggers
 * match; the outcome says how many pipelines it entered and why others refused it.
 */
import type { ChangeInfo } from '../../model/changes';
import type { TriggerEvent } from '../../model/engine-events';
import type { PassContext } from '../pass-context';
import type { PipelineManager } from '../pipeline/manager';
import { pipelineMatches } from '../triggers';
import { resolveChange, resolveProject } from './change-lookup';

interface EntryOutcome {
  entered: number;
  /** `<pipeline>: <reason>` for each matching pipeline that refused the change. */
  refused: string[];
}

export async function handleTrigger(
  ctx: PassContext,
  managers: ReadonlyMap<string, PipelineManager>,
  event: TriggerEvent,
): Promise<string> {
  const project = resolveProject(ctx.layout, event.project);
  if (!project) {
    return 'dropped: unknown project';
  }
  if (event.type === 'project-change-merged') {
    const open = await ctx.gateways.changes.openChanges(project);
    const outcome: EntryOutcome = { entered: 0, refused: [] };
    for (const change of open) {
      const one = await enterPipelines(ctx, managers, event, change);
      outcome.entered += one.entered;
      outcome.refused.push(...one.refused);
    }
    return describeEntry(outcome);
  }
  const change = await resolveChange(ctx.gateways.changes, project, event);
  if (!change) {
    return 'dropped: unknown change';
  }
  // A new patchset: a git change ref, or a pull or merge request opened or pushed to
  // (docs/github.md#trigger-events, docs/gitlab.md#trigger-events).
  const newPatchset =
    event.type === 'patchset-created' ||
    ((event.type === 'pull_request' || event.type === 'gl_merge_request') &&
      (event.action === 'opened' || event.action === 'changed'));
  if (newPatchset) {
    for (const manager of managers.values()) {
      await manager.removeOldPatchsets(ctx, change);
    }
  }
  for (const manager of managers.values()) {
    if (abandoned(event, change)) {
      await manager.removeAbandonedChange(ctx, change);
    } else {
      await manager.dequeueUnmetRequirements(ctx, change);
      await manager.removeChangedCycles(ctx, change);
    }
  }
  return describeEntry(await enterPipelines(ctx, managers, event, change));
}

/**
 * An event that closes a change without merging it: Gerrit's `change-abandoned`, a pull or merge
 * request closed unmerged (the reference's `isChangeAbandoned`).
 */
function abandoned(event: TriggerEvent, change: ChangeInfo): boolean {
  if (event.type === 'change-abandoned') {
    return true;
  }
  const closes = (event.type === 'pull_request' || event.type === 'gl_merge_request') && event.action === 'closed';
  return closes && !change.merged;
}

/** Offer a change to every pipeline whose triggers match; refusals are kept for the event's outcome. */
async function enterPipelines(
  ctx: PassContext,
  managers: ReadonlyMap<string, PipelineManager>,
  event: TriggerEvent,
  change: ChangeInfo,
): Promise<EntryOutcome> {
  const outcome: EntryOutcome = { entered: 0, refused: [] };
  const connection = ctx.layout.projects.get(change.project)?.connection ?? '';
  for (const manager of managers.values()) {
    if (!pipelineMatches(manager.config, event, change, connection, ctx.now)) {
      continue;
    }
    const imageEvent = event.type === 'image-build' || event.type === 'image-validate';
    const imageNames = imageEvent ? (event.imageNames ?? []) : null;
    const imageUploadUuid = event.type === 'image-validate' ? (event.imageUploadUuid ?? null) : null;
    const result = await manager.addChange(ctx, change, {
      live: true,
      quiet: false,
      eventId: event.eventId ?? null,
      eventTimestamp: event.timestamp ?? ctx.nowIso(),
      imageNames,
      imageUploadUuid,
    });
    if (result.enqueued) {
      outcome.entered += 1;
    } else {
      outcome.refused.push(`${manager.name}: ${result.reason}`);
    }
  }
  return outcome;
}

/** A trigger event's outcome text: how many pipelines it entered, and why others refused it. */
function describeEntry(outcome: EntryOutcome): string {
  return outcome.refused.length === 0
    ? `entered ${outcome.entered}`
    : `entered ${outcome.entered}; refused by ${outcome.refused.join('; ')}`;
}
