/** Nodesets as jobs use them: named or anonymous sets of nodes, possibly with alternatives. */
import type {
  Nodeset as NodesetValue,
  NodesetGroup as NodesetGroupValue,
  NodesetNode as NodesetNodeValue,
} from '../src/config/layout';
import { builder } from './infra/builder';

const NodesetNode = builder.objectRef<NodesetNodeValue>('NodesetNode').implement({
  description: 'A node of a nodeset as configured (no allocation state: that belongs to a build).',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'First name of the node.' }),
    aliases: t.exposeStringList('aliases', { nullable: false, description: 'Further names of the same node.' }),
    label: t.exposeString('label', { nullable: false, description: 'Label the launcher allocates the node with.' }),
  }),
});

const NodesetGroup = builder.objectRef<NodesetGroupValue>('NodesetGroup').implement({
  description: 'A named group of nodes inside a nodeset.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the group.' }),
    nodes: t.exposeStringList('nodes', { nullable: false, description: 'Names of the nodes in the group.' }),
  }),
});

export const Nodeset = builder.objectRef<NodesetValue>('Nodeset');

Nodeset.implement({
  description: 'A concrete set of nodes a job runs on.',
  fields: (t) => ({
    name: t.exposeString('name', {
      nullable: false,
      description: 'Name of the nodeset; empty for an anonymous nodeset.',
    }),
    nodes: t.field({
      type: [NodesetNode],
      nullable: false,
      description: 'Nodes, in configuration order.',
      resolve: (n) => n.nodes,
    }),
    groups: t.field({
      type: [NodesetGroup],
      nullable: false,
      description: 'Groups of nodes.',
      resolve: (n) => n.groups,
    }),
    alternatives: t.field({
      type: [Nodeset],
      nullable: false,
      description:
        "Always empty on a resolved nodeset: alternatives are flattened into the job's `nodesetAlternatives`.",
      resolve: (n) => n.alternatives.filter((alt): alt is NodesetValue => typeof alt !== 'string'),
    }),
  }),
});
