/**
 * Pipeline `require` / `reject` and `allow-other-connections` (docs/project-configuration.md#pipelines,
 * docs/project-configuration.md#triggers-reporters-and-requirements, docs/gating.md#enqueue): preconditions on a change that
 * wants to enter a pipeline. Only the entries for the change's own connection apply. The options follow the reference's Gerrit
 * filters as far as they mean something for plain git changes: `open`, `current-patchset` and `status` (`NEW` or `MERGED`). As
 * in the reference, a ref update (branch, tag) is not a change and fails every one of them.
 */
import type { ChangeInfo } from '../model/changes';
import type { ChangeRequirement, EnginePipeline } from './ports/layout';
import { changeId } from '../model/changes';

/** The Gerrit-style status of a change. */
function statusOf(change: ChangeInfo): string {
  return change.merged ? 'MERGED' : 'NEW';
}

function isCurrent(change: ChangeInfo): boolean {
  return change.currentPatchset !== false;
}

/** Why a change fails one `require` entry, or null when it meets it. */
function failsRequire(requirement: ChangeRequirement, change: ChangeInfo, now: Date): string | null {
  const isChange = change.kind === 'change';
  if (requirement.open !== undefined) {
    if (!isChange) {
      return 'it is not a change (require open)';
    }
    if (requirement.open !== !change.merged) {
      return requirement.open ? 'it is not open (require open: true)' : 'it is open (require open: false)';
    }
  }
  if (requirement.currentPatchset !== undefined) {
    if (!isChange) {
      return 'it is not a change (require current-patchset)';
    }
    if (requirement.currentPatchset !== isCurrent(change)) {
      return requirement.currentPatchset
        ? 'it is not the current patchset (require current-patchset: true)'
        : 'it is the current patchset (require current-patchset: false)';
    }
  }
  if (requirement.status !== undefined && requirement.status.length > 0) {
    const status = isChange ? statusOf(change) : null;
    if (status === null || !requirement.status.includes(status)) {
      return `its status ${status ?? '(none: not a change)'} is not one of ${requirement.status.join(', ')} (require status)`;
    }
  }
  return requirement.driverCheck?.(change, now) ?? null;
}

/** Why a change matches one `reject` entry, or null when it does not. */
function matchesReject(requirement: ChangeRequirement, change: ChangeInfo, now: Date): string | null {
  const isChange = change.kind === 'change';
  if (requirement.open !== undefined) {
    if (!isChange) {
      return 'it is not a change (reject open)';
    }
    if (requirement.open === !change.merged) {
      return requirement.open ? 'it is open (reject open: true)' : 'it is not open (reject open: false)';
    }
  }
  if (requirement.currentPatchset !== undefined) {
    if (!isChange) {
      return 'it is not a change (reject current-patchset)';
    }
    if (requirement.currentPatchset === isCurrent(change)) {
      return requirement.currentPatchset
        ? 'it is the current patchset (reject current-patchset: true)'
        : 'it is not the current patchset (reject current-patchset: false)';
    }
  }
  if (
    requirement.status !== undefined &&
    requirement.status.length > 0 &&
    isChange &&
    requirement.status.includes(statusOf(change))
  ) {
    return `its status is ${statusOf(change)} (reject status)`;
  }
  return requirement.driverCheck?.(change, now) ?? null;
}

/**
 * Every connection a pipeline names: in its triggers, requirements and reporters
 * (docs/project-configuration.md#pipelines).
 */
export function pipelineConnections(pipeline: EnginePipeline): Set<string> {
  const connections = new Set<string>();
  pipeline.triggers.forEach((trigger) => connections.add(trigger.connection));
  [...pipeline.require, ...pipeline.reject].forEach((requirement) => connections.add(requirement.connection));
  Object.values(pipeline.reporters).forEach((actions) =>
    actions.connections.forEach((connection) => connections.add(connection)),
  );
  return connections;
}

/**
 * With `allow-other-connections: false`, why a change of a project on `connection` may not
 * enter the pipeline (null when it may).
 */
export function foreignConnection(pipeline: EnginePipeline, connection: string, change: ChangeInfo): string | null {
  if (pipeline.allowOtherConnections || pipelineConnections(pipeline).has(connection)) {
    return null;
  }
  return `${describe(change)} is from connection ${connection}, which pipeline ${pipeline.name} does not use (allow-other-connections: false)`;
}

/** Whether the pipeline has any requirement for changes of this connection. */
export function hasRequirements(pipeline: EnginePipeline, connection: string): boolean {
  return [...pipeline.require, ...pipeline.reject].some((requirement) => requirement.connection === connection);
}

/**
 * The reason a change does not meet the pipeline's requirements for its connection at `now`
 * (the pass's clock), or null when it does.
 */
export function unmetRequirement(
  pipeline: EnginePipeline,
  connection: string,
  change: ChangeInfo,
  now: Date,
): string | null {
  for (const requirement of pipeline.require) {
    if (requirement.connection !== connection) {
      continue;
    }
    const reason = failsRequire(requirement, change, now);
    if (reason !== null) {
      return `${describe(change)} does not meet the requirements of pipeline ${pipeline.name}: ${reason}`;
    }
  }
  for (const requirement of pipeline.reject) {
    if (requirement.connection !== connection) {
      continue;
    }
    const reason = matchesReject(requirement, change, now);
    if (reason !== null) {
      return `${describe(change)} is rejected by pipeline ${pipeline.name}: ${reason}`;
    }
  }
  return null;
}

function describe(change: ChangeInfo): string {
  return change.kind === 'change'
    ? `Change ${changeId(change)} of ${change.project}`
    : `Ref ${change.ref} of ${change.project}`;
}
