/**
 * Resolving a nodeset reference to its ordered list of concrete alternatives (docs/project-configuration.md#nodesets).
 */
import { ConfigObjectError, ErrorName } from './config-error';
import type { JobNodeset, Nodeset } from './layout';

/**
 * Flatten alternatives depth-first in list order (as the reference code does). A concrete
 * nodeset yields itself; named references are looked up in `nodesets`.
 */
export function flattenNodeset(
  nodeset: Nodeset,
  nodesets: ReadonlyMap<string, Nodeset>,
  stack: string[] = [],
  attribute = 'nodeset',
): Nodeset[] {
  if (nodeset.alternatives.length === 0) {
    return [nodeset];
  }
  const out: Nodeset[] = [];
  for (const alt of nodeset.alternatives) {
    if (typeof alt === 'string') {
      if (stack.includes(alt) || alt === nodeset.name) {
        throw new ConfigObjectError(`Nodeset cycle detected on "${alt}"`, ErrorName.unknown, attribute);
      }
      const target = nodesets.get(alt);
      if (target === undefined) {
        throw new ConfigObjectError(`The nodeset "${alt}" was not found.`, ErrorName.nodesetNotFound, attribute);
      }
      out.push(
        ...flattenNodeset(target, nodesets, [...stack, ...(nodeset.name ? [nodeset.name] : []), alt], attribute),
      );
    } else {
      out.push(...flattenNodeset(alt, nodesets, stack, attribute));
    }
  }
  return out;
}

/** The concrete alternatives a job nodeset attribute stands for. */
export function resolveJobNodeset(ref: JobNodeset, nodesets: ReadonlyMap<string, Nodeset>): Nodeset[] {
  if (ref.kind === 'named') {
    const named = nodesets.get(ref.name);
    if (named === undefined) {
      throw new ConfigObjectError(`The nodeset "${ref.name}" was not found.`, ErrorName.nodesetNotFound, 'nodeset');
    }
    return flattenNodeset(named, nodesets, [ref.name]);
  }
  return flattenNodeset(ref.nodeset, nodesets);
}

/** Total number of nodes in a concrete nodeset. */
export function nodeCount(nodeset: Nodeset): number {
  return nodeset.nodes.length;
}
