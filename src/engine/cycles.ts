/**
 * Dependency cycles (docs/gating.md#dependency-cycles): the changes that depend on a change
 * through `Depends-On:` and on which it depends in turn, i.e. the strongly connected component
 * of its dependency graph that holds it. Where a project's queue says `dependencies-by-topic`,
 * its change also depends on every open change sharing its topic, as in the reference. A cycle enters a pipeline as one item holding all its
 * changes, when every member's queue allows circular dependencies.
 */
import { changeId, type ChangeInfo } from '../model/changes';
import type { ChangeSource } from './ports/change-source';
import type { EngineLayout } from './ports/layout';

/** How many changes the graph walk reads at most: a cycle larger than this is not looked for. */
export const CYCLE_GRAPH_LIMIT = 100;

/** What a `Depends-On:` names: a change by project and number (its current patchset). */
const nameOf = (project: string, number: number | null): string => `${project}#${number ?? 0}`;
/**
 * A node of the graph: one patchset. A dependency names the current patchset, so an outdated
 * patchset (an event judged after a newer one was uploaded) is not reached back through it: as
 * in the reference, whose changes are per patchset, it is in no cycle.
 */
const keyOf = (member: ChangeInfo): string => `${nameOf(member.project, member.number)}#${member.patchset ?? ''}`;

/**
 * The cycle holding `change`, the change first and the others in the order the walk met them;
 * `[change]` when it is in none. Merged changes are not part of the graph (as for
 * dependencies). Each change is read once. `byTopic`: whether a project's changes depend on the
 * changes of their topic.
 */
export async function findCycle(
  source: ChangeSource,
  change: ChangeInfo,
  byTopic: (project: string) => boolean = () => false,
): Promise<ChangeInfo[]> {
  const topics = (member: ChangeInfo) => source.changesInTopic !== undefined && byTopic(member.project);
  if (change.kind !== 'change' || change.number === null || (change.dependsOn.length === 0 && !topics(change))) {
    return [change];
  }
  const start = keyOf(change);
  const nodes = new Map<string, ChangeInfo>([[start, change]]);
  // Depends-On may name a project otherwise than its changes do (short or canonical name):
  // nodes are keyed by the change as read, and what a dependency named maps to it.
  const named = new Map<string, string | null>();
  const edges = new Map<string, string[]>();
  const frontier = [start];
  while (frontier.length > 0 && nodes.size <= CYCLE_GRAPH_LIMIT) {
    const key = frontier.shift() as string;
    const node = nodes.get(key) as ChangeInfo;
    const targets: string[] = [];
    for (const dependency of node.dependsOn) {
      const name = nameOf(dependency.project, dependency.number);
      if (!named.has(name)) {
        const needed = await source.getChange(dependency.project, dependency.number);
        const target = needed && !needed.merged ? keyOf(needed) : null;
        named.set(name, target);
        if (needed && target !== null && !nodes.has(target)) {
          nodes.set(target, needed);
          frontier.push(target);
        }
      }
      const target = named.get(name);
      if (target) {
        targets.push(target);
      }
    }
    for (const mate of topics(node) ? await topicMates(source, node) : []) {
      const target = keyOf(mate);
      if (!nodes.has(target)) {
        nodes.set(target, mate);
        named.set(nameOf(mate.project, mate.number), target);
        frontier.push(target);
      }
      targets.push(target);
    }
    edges.set(key, targets);
  }
  // The members are the changes the walk reached that reach the change back.
  const reachesStart = new Set<string>([start]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [from, targets] of edges) {
      if (!reachesStart.has(from) && targets.some((target) => reachesStart.has(target))) {
        reachesStart.add(from);
        grew = true;
      }
    }
  }
  return [...nodes.entries()].filter(([key]) => reachesStart.has(key)).map(([, member]) => member);
}

/** The open changes sharing the change's topic, the change itself left out. */
async function topicMates(source: ChangeSource, change: ChangeInfo): Promise<ChangeInfo[]> {
  const found = (await source.changesInTopic?.(change)) ?? [];
  return found.filter(
    (mate) =>
      mate.kind === 'change' && !mate.merged && !(mate.project === change.project && mate.number === change.number),
  );
}

/** The cycle's members as the refusal names them: `1,1 of org/a, 2,1 of org/b`. */
export function describeCycle(cycle: readonly ChangeInfo[]): string {
  return cycle.map((member) => `${changeId(member)} of ${member.project}`).join(', ');
}

/**
 * Why a cycle may not enter the pipeline (null when it may): a member whose project's queue does
 * not allow circular dependencies, with the reference's message.
 */
export function cycleRefusal(layout: EngineLayout, cycle: readonly ChangeInfo[]): string | null {
  const forbidding = cycle.find((member) => !(layout.projects.get(member.project)?.queueAllowsCycles ?? false));
  if (forbidding === undefined) {
    return null;
  }
  const name = layout.projects.get(forbidding.project)?.name ?? forbidding.project;
  return `Dependency cycle detected and project ${name} doesn't allow circular dependencies (cycle: ${describeCycle(cycle)})`;
}
