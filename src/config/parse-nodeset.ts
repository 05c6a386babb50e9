/** `nodeset` objects (docs/project-configuration.md#nodesets), named or anonymous (inline in a job). */
import { ConfigObjectError, ErrorName } from './config-error';
import type { Nodeset, NodesetGroup, NodesetNode } from './layout';
import type { ParseContext } from './parse-context';
import { checkKeys, reqString, requireMap, strList } from './schema-helpers';
import { isYamlMapping } from './yaml-source';

const NODESET_KEYS = new Set(['name', 'nodes', 'groups', 'alternatives', 'description']);

/** Parse a nodeset body; `anonymous` nodesets have no name. */
export function parseNodeset(body: unknown, ctx: ParseContext, anonymous: boolean): Nodeset {
  const map = requireMap(body, 'nodeset');
  checkKeys(map, NODESET_KEYS, anonymous ? [] : ['name']);
  const name = anonymous ? '' : reqString(map, 'name');
  if (anonymous && map.name !== undefined && typeof map.name !== 'string') {
    throw new ConfigObjectError(`expected str for dictionary value @ data['name']`, ErrorName.syntax, 'name');
  }
  if (map.alternatives !== undefined && map.alternatives !== null) {
    if (map.nodes !== undefined || map.groups !== undefined) {
      throw new ConfigObjectError(
        'A nodeset with alternatives may not have nodes or groups',
        ErrorName.syntax,
        'alternatives',
      );
    }
    if (!Array.isArray(map.alternatives)) {
      throw new ConfigObjectError(
        `expected a list for dictionary value @ data['alternatives']`,
        ErrorName.syntax,
        'alternatives',
      );
    }
    const alternatives = map.alternatives.map((alt): string | Nodeset => {
      if (typeof alt === 'string') {
        return alt;
      }
      return parseNodeset(alt, ctx, true);
    });
    return { name, nodes: [], groups: [], alternatives, sourceContext: ctx.sourceContext };
  }
  const nodes: NodesetNode[] = [];
  const allNames = new Set<string>();
  // `nodes` and `groups` take one item or a list, as in the reference (docs/project-configuration.md#nodesets).
  const rawNodes = oneOrList(map.nodes);
  if (!Array.isArray(rawNodes)) {
    throw new ConfigObjectError(`expected a list for dictionary value @ data['nodes']`, ErrorName.syntax, 'nodes');
  }
  for (const raw of rawNodes) {
    const node = requireMap(raw, 'node');
    checkKeys(node, new Set(['name', 'label']), ['name', 'label'], "data['nodes']");
    const names = strList(node.name, 'nodes');
    if (names.length === 0) {
      throw new ConfigObjectError('A node needs a name', ErrorName.syntax, 'nodes');
    }
    for (const n of names) {
      if (n === 'localhost') {
        throw new ConfigObjectError('Nodes named "localhost" are not allowed.', ErrorName.unknown, 'nodes');
      }
      if (allNames.has(n)) {
        throw new ConfigObjectError(
          `The node name "${n}" appears more than once in the nodeset "${name}".`,
          ErrorName.duplicateNode,
          'nodes',
        );
      }
      allNames.add(n);
    }
    const label = node.label;
    if (typeof label !== 'string') {
      throw new ConfigObjectError(
        `expected str for dictionary value @ data['nodes']['label']`,
        ErrorName.syntax,
        'nodes',
      );
    }
    nodes.push({ name: names[0], aliases: names.slice(1), label });
  }
  const groups: NodesetGroup[] = [];
  const groupNames = new Set<string>();
  const rawGroups = oneOrList(map.groups);
  if (!Array.isArray(rawGroups)) {
    throw new ConfigObjectError(`expected a list for dictionary value @ data['groups']`, ErrorName.syntax, 'groups');
  }
  for (const raw of rawGroups) {
    if (!isYamlMapping(raw)) {
      throw new ConfigObjectError('expected a dictionary for a group', ErrorName.syntax, 'groups');
    }
    checkKeys(raw, new Set(['name', 'nodes']), ['name', 'nodes'], "data['groups']");
    const groupName = raw.name;
    if (typeof groupName !== 'string') {
      throw new ConfigObjectError(
        `expected str for dictionary value @ data['groups']['name']`,
        ErrorName.syntax,
        'groups',
      );
    }
    if (groupName === 'localhost') {
      throw new ConfigObjectError('Groups named "localhost" are not allowed.', ErrorName.unknown, 'groups');
    }
    if (groupNames.has(groupName)) {
      throw new ConfigObjectError(
        `The group name "${groupName}" appears more than once in the nodeset "${name}".`,
        ErrorName.duplicateGroup,
        'groups',
      );
    }
    groupNames.add(groupName);
    const members = strList(raw.nodes, 'groups');
    for (const m of members) {
      if (!allNames.has(m)) {
        throw new ConfigObjectError(
          `In nodeset "${name}" the group "${groupName}" contains a node named "${m}" which is not defined in the nodeset.`,
          ErrorName.nodeFromGroupNotFound,
          'groups',
        );
      }
    }
    groups.push({ name: groupName, nodes: members });
  }
  return { name, nodes, groups, alternatives: [], sourceContext: ctx.sourceContext };
}

/** A single mapping stands for a list of one; anything else is returned as written. */
function oneOrList(value: unknown): unknown {
  if (value === undefined || value === null) {
    return [];
  }
  return isYamlMapping(value) ? [value] : value;
}

/** Structural equality of two nodesets (for identical duplicates across branches). */
export function sameNodeset(a: Nodeset, b: Nodeset): boolean {
  const strip = (n: Nodeset): unknown => ({
    name: n.name,
    nodes: n.nodes,
    groups: n.groups,
    alternatives: n.alternatives.map((x) => (typeof x === 'string' ? x : strip(x))),
  });
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}
