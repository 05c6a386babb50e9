/**
 * What a `queueEvents` subscription selects of each change type, so that changes touching only
 * fields it does not select are not sent (docs/live.md#what-is-sent). Read once per subscription
 * from its document; fragments, inline fragments and abstract type conditions are followed;
 * `@skip`/`@include` are ignored (a field under them counts as selected).
 */
import {
  Kind,
  isAbstractType,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { StatusChange } from '../../src/engine/status-diff';
import { CHANGE_TYPE_NAMES, JOB_CHANGE_TYPE_NAMES, changeTypeName } from '../queue-changes';

/** Fields selected on an object type: name -> sub-selections. */
type Selected = Map<string, SelectionSetNode[]>;

function applies(schema: GraphQLSchema, condition: string | undefined, typeName: string): boolean {
  if (condition === undefined || condition === typeName) {
    return true;
  }
  const conditionType = schema.getType(condition);
  const type = schema.getType(typeName);
  if (!conditionType || !type || !isAbstractType(conditionType) || !('getInterfaces' in type)) {
    return false;
  }
  return schema.isSubType(conditionType, type as Parameters<GraphQLSchema['isSubType']>[1]);
}

/** The fields selected on objects of `typeName` by these selection sets. */
function collect(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  sets: readonly SelectionSetNode[],
  typeName: string,
  into: Selected = new Map(),
): Selected {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const list = into.get(selection.name.value) ?? [];
        if (selection.selectionSet) {
          list.push(selection.selectionSet);
        }
        into.set(selection.name.value, list);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(schema, selection.typeCondition?.name.value, typeName)) {
          collect(schema, fragments, [selection.selectionSet], typeName, into);
        }
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment && applies(schema, fragment.typeCondition.name.value, typeName)) {
          collect(schema, fragments, [fragment.selectionSet], typeName, into);
        }
      }
    }
  }
  return into;
}

/** Identity fields: selecting only these means "tell me that it happened". */
const IDENTITY = new Set(['__typename', 'pipeline', 'itemId']);

/** Stored fields behind the fields computed from them. */
const DERIVED: Record<string, string[]> = {
  enqueuedAt: ['enqueueTime'],
  elapsedTime: ['startTime', 'endTime'],
  remainingTime: ['startTime', 'endTime', 'estimatedTime', 'result'],
};

/** A field filter: null keeps every change of the type; otherwise the changed fields that matter. */
type FieldFilter = Set<string> | null;

function expand(names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const name of names) {
    for (const stored of DERIVED[name] ?? [name]) {
      out.add(stored);
    }
  }
  return out;
}

export class ChangeInterest {
  /** Stable text of the interest (subscribers with equal keys receive the same deltas). */
  readonly key: string;

  private constructor(private readonly filters: ReadonlyMap<string, FieldFilter>) {
    this.key = JSON.stringify(
      [...filters].map(([type, filter]) => [type, filter === null ? null : [...filter].sort()]),
    );
  }

  /** Everything (no selection analysis). */
  static all(): ChangeInterest {
    return new ChangeInterest(new Map());
  }

  /** The interest of the subscription field being resolved. */
  static of(info: GraphQLResolveInfo): ChangeInterest {
    const roots = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    const delta = collect(info.schema, info.fragments, roots, 'QueueDelta');
    const changeSets = delta.get('changes') ?? [];
    const filters = new Map<string, FieldFilter>();
    for (const typeName of CHANGE_TYPE_NAMES) {
      const selected = collect(info.schema, info.fragments, changeSets, typeName);
      const relevant = [...selected.keys()].filter((name) => !IDENTITY.has(name));
      if (relevant.includes('changed')) {
        filters.set(typeName, null);
      } else if (relevant.length === 0) {
        // Only `__typename`: field changes would say nothing; `itemId` alone: "tell me it happened".
        filters.set(typeName, selected.has('itemId') || selected.has('pipeline') ? null : new Set());
      } else if (JOB_CHANGE_TYPE_NAMES.includes(typeName)) {
        const jobSets = selected.get('job') ?? [];
        const jobFields = [...collect(info.schema, info.fragments, jobSets, 'StatusJob').keys()].filter(
          (name) => name !== '__typename',
        );
        filters.set(typeName, jobFields.length === 0 ? null : expand(jobFields));
      } else if (typeName === 'ItemChanged') {
        filters.set(typeName, expand(relevant));
      }
    }
    return new ChangeInterest(filters);
  }

  /** Whether the subscriber selected something this change changes. */
  wants(change: StatusChange): boolean {
    if (change.kind !== 'item-changed' && change.kind !== 'job-changed') {
      return true;
    }
    const filter = this.filters.get(changeTypeName(change));
    if (filter === undefined || filter === null) {
      return true;
    }
    return change.changed.some((name) => filter.has(name));
  }
}
