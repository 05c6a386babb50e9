/** The layout's project records: each loaded project with the metadata its project stanzas set. */
import type { LayoutProject, ProjectStanza } from './layout';
import type { LoadedProject } from './layout-collect';

export function projectRecords(
  projects: readonly LoadedProject[],
  configs: ReadonlyMap<string, readonly ProjectStanza[]>,
  templates: ReadonlyMap<string, readonly ProjectStanza[]>,
): Map<string, LayoutProject> {
  const out = new Map<string, LayoutProject>();
  for (const p of projects) {
    const stanzas = configs.get(p.canonicalName) ?? [];
    let mergeMode: LayoutProject['metadata']['mergeMode'] | undefined;
    let defaultBranch: string | undefined;
    let queueName: string | undefined;
    for (const stanza of stanzas) {
      mergeMode = mergeMode ?? stanza.mergeMode;
      defaultBranch = defaultBranch ?? stanza.defaultBranch;
      queueName = queueName ?? stanza.queue;
      for (const t of stanza.templates) {
        queueName = queueName ?? templates.get(t)?.find((tpl) => tpl.queue !== undefined)?.queue;
      }
    }
    out.set(p.canonicalName, {
      name: p.name,
      canonicalName: p.canonicalName,
      connectionName: p.connectionName,
      trusted: p.trusted,
      branches: [...p.branches],
      branchShas: { ...p.branchShas },
      ...(p.protectedBranches !== undefined ? { protectedBranches: [...p.protectedBranches] } : {}),
      dynamicBranches: [...(p.dynamicBranches ?? [])],
      metadata: {
        mergeMode: mergeMode ?? 'merge-resolve',
        defaultBranch: defaultBranch ?? p.defaultBranch,
        queueName,
      },
    });
  }
  return out;
}
