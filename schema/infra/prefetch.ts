/**
 * Prefetching a page's relations. GraphQL would reach a list's nested relations only after
 * completing every record of the page, and would then wait on one promise per relation field
 * of every record. A list resolver instead loads the relations the query selects as soon as its
 * page is known, all batches at once, and hands GraphQL a page whose relations resolve
 * synchronously (docs/rest.md, Overhead).
 */
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { GraphQLContext } from './context';

/** Loads one relation for every record of a page into its request loader. */
export type RelationPrefetch<Row> = (ctx: GraphQLContext, rows: readonly Row[]) => Promise<void>;

const selectedByField = new WeakMap<FieldNode, ReadonlySet<string>>();

/**
 * Names of the fields the query selects on the records of a connection (`nodes { … }` and
 * `edges { node { … } }`), through fragments; cached per field of a parsed document.
 */
export function selectedRecordFields(info: GraphQLResolveInfo): ReadonlySet<string> {
  const [first] = info.fieldNodes;
  const cached = selectedByField.get(first);
  if (cached && info.fieldNodes.length === 1) {
    return cached;
  }
  const names = new Set<string>();
  for (const node of info.fieldNodes) {
    for (const field of fieldsOf(node.selectionSet, info)) {
      if (field.name.value === 'nodes') {
        addFieldNames(field.selectionSet, info, names);
      } else if (field.name.value === 'edges') {
        for (const edgeField of fieldsOf(field.selectionSet, info)) {
          if (edgeField.name.value === 'node') {
            addFieldNames(edgeField.selectionSet, info, names);
          }
        }
      }
    }
  }
  if (info.fieldNodes.length === 1) {
    selectedByField.set(first, names);
  }
  return names;
}

/** Loads the relations the query selects on the records of `rows`, concurrently. */
export async function prefetchRelations<Row>(
  ctx: GraphQLContext,
  info: GraphQLResolveInfo,
  rows: readonly Row[],
  relations: Readonly<Record<string, RelationPrefetch<Row>>>,
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const selected = selectedRecordFields(info);
  const loads = new Set<RelationPrefetch<Row>>();
  for (const [field, prefetch] of Object.entries(relations)) {
    if (selected.has(field)) {
      loads.add(prefetch); // several fields may need one relation (a buildset's pipeline, eventId…)
    }
  }
  await Promise.all([...loads].map((prefetch) => prefetch(ctx, rows)));
}

function addFieldNames(selectionSet: SelectionSetNode | undefined, info: GraphQLResolveInfo, names: Set<string>): void {
  for (const field of fieldsOf(selectionSet, info)) {
    names.add(field.name.value);
  }
}

/** The fields of a selection set, fragments spread in (directives ignored: a surplus prefetch is harmless). */
function* fieldsOf(selectionSet: SelectionSetNode | undefined, info: GraphQLResolveInfo): Generator<FieldNode> {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      yield selection;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      yield* fieldsOf(selection.selectionSet, info);
    } else {
      yield* fieldsOf(info.fragments[selection.name.value]?.selectionSet, info);
    }
  }
}
