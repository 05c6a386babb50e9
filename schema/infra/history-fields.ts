/**
 * Fields builds and buildsets share: the filter fields of their lists (the ref conditions, uuid,
 * result, completeness and id range; docs/rest.md#builds, docs/rest.md#buildsets) and the tenant
 * field that finds one by uuid.
 */
import type { EnumRef, ObjectRef } from '@pothos/core';
import type { SchemaTypes } from './builder';
import type { GraphQLContext } from './context';
import { NotFoundError } from './errors';

type Types = PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>;

/**
 * The filter fields of a build or buildset list. `ofRef` says which ref the ref conditions are
 * about ("of the build's ref").
 */
export function historyFilterFields<Result>(
  t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>,
  spec: { noun: 'build' | 'buildset'; ofRef: string; result: EnumRef<Types, Result> },
) {
  const { noun, ofRef } = spec;
  const Noun = `${noun[0].toUpperCase()}${noun.slice(1)}`;
  return {
    project: t.stringList({
      description: `Project ${ofRef}: its name (\`org/project\`) or canonical name; \`*\` is a wildcard (\`org/*\`).`,
    }),
    pipeline: t.stringList({ description: 'Pipeline of the buildset; `*` is a wildcard (`gat*`).' }),
    branch: t.stringList({ description: `Branch ${ofRef}; \`*\` is a wildcard (\`*ster\`).` }),
    change: t.intList({ description: `Change number ${ofRef}.` }),
    patchset: t.stringList({ description: `Patchset ${ofRef}.` }),
    ref: t.stringList({ description: `Exact git ref ${ofRef}, e.g. \`refs/heads/master\`.` }),
    newrev: t.stringList({ description: `New revision ${ofRef}.` }),
    uuid: t.stringList({ description: `${Noun} uuids.` }),
    result: t.field({ type: [spec.result], description: 'Only these results.' }),
    excludeResult: t.field({
      type: [spec.result],
      description: `Not these results; as in the REST API this also drops ${noun}s still running.`,
    }),
    complete: t.boolean({ description: `true: finished ${noun}s only; false: running ${noun}s only.` }),
    idxMin: t.int({ description: 'Smallest database id to include (inclusive).' }),
    idxMax: t.int({ description: 'Largest database id to include (inclusive).' }),
  };
}

/** The tenant field `build(uuid)` / `buildset(uuid)`: the record, or a NotFoundError. */
export function recordByUuidField<Row extends object>(
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, { name: string }>,
  spec: {
    name: 'Build' | 'Buildset';
    type: NoInfer<ObjectRef<Types, Row | number, Row>>;
    find: (ctx: GraphQLContext, tenant: string, uuid: string) => Promise<Row | undefined | null>;
  },
) {
  const { name } = spec;
  const noun = name.toLowerCase();
  // Pothos checks a resolver's result against the type's shape with a conditional type that stays
  // unresolved for a generic `Row`; `find` already returns that shape, so the field is declared
  // over the object type it is.
  const type: ObjectRef<Types, object | number, object> = spec.type;
  return t.field({
    type,
    description: `The ${noun} with this uuid; a NotFoundError ("${name} not found") when the tenant has none.`,
    args: { uuid: t.arg.string({ required: true, description: `${name} uuid.` }) },
    errors: {
      types: [NotFoundError],
      directResult: true,
      union: {
        name: `Tenant${name}Result`,
        description: `The ${noun}, or a NotFoundError when the tenant has no ${noun} with that uuid.`,
      },
    },
    resolve: async (tenant, { uuid }, ctx) => {
      const row = await spec.find(ctx, tenant.name, uuid);
      if (!row) {
        throw new NotFoundError(name, uuid, `${name} not found`);
      }
      return row;
    },
  });
}

/** The fields that identify a build or a buildset: database id, uuid and tenant. */
export function recordIdentityFields<Shape extends { id: number; uuid: string; tenant: string }>(
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>,
  spec: { noun: 'build' | 'buildset'; uuidUsedBy: string },
) {
  const { noun } = spec;
  const Noun = `${noun[0].toUpperCase()}${noun.slice(1)}`;
  return {
    databaseId: t.int({
      nullable: false,
      description: 'Database id (the REST `_id`); usable with the `idxMin`/`idxMax` filters.',
      resolve: (record) => record.id,
    }),
    uuid: t.string({
      nullable: false,
      description: `${Noun} uuid (32 hex characters), as used by ${spec.uuidUsedBy}.`,
      resolve: (record) => record.uuid,
    }),
    tenant: t.string({
      nullable: false,
      description: `Name of the tenant the ${noun} belongs to.`,
      resolve: (record) => record.tenant,
    }),
  };
}
