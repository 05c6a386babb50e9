/** Resolving what an event names: the project (short or canonical name) and the change or ref. */
import type { ChangeInfo } from '../../model/changes';
import type { ChangeSource } from '../ports/change-source';
import type { EngineLayout } from '../ports/layout';

/** The canonical name of a project named by its short or canonical name, or null when unknown. */
export function resolveProject(layout: EngineLayout, name: string): string | null {
  if (layout.projects.has(name)) {
    return name;
  }
  for (const project of layout.projects.values()) {
    if (project.name === name) {
      return project.canonicalName;
    }
  }
  return null;
}

/** What an event says of its change: a change number (and patchset), or a ref (or branch) update. */
export interface ChangeSpec {
  change?: number | null;
  patchset?: string | null;
  ref?: string;
  branch?: string;
  oldrev?: string | null;
  newrev?: string | null;
}

/** The change or ref update an event names, from the change source; null when it names none it knows. */
export async function resolveChange(
  changes: ChangeSource,
  project: string,
  spec: ChangeSpec,
): Promise<ChangeInfo | null> {
  if (spec.change !== undefined && spec.change !== null) {
    return changes.getChange(project, spec.change, spec.patchset ?? undefined);
  }
  const ref = spec.ref ?? (spec.branch ? `refs/heads/${spec.branch}` : null);
  if (ref === null) {
    return null;
  }
  return changes.getRef(project, ref, spec.oldrev ?? null, spec.newrev ?? null);
}
