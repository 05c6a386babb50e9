/**
 * Input hygiene for every field (docs/graphql.md#input-rules): a builder plugin that checks a
 * field's coerced arguments before its resolver (or subscribe function) runs, on every transport
 * and executor — yoga over HTTP and WebSocket, and the graphql-jit runner of the REST layer — so no
 * string with a control character reaches the store. Free-text input fields and arguments
 * (`extensions: FREE_TEXT`) may also hold tab and line breaks. A refused value answers the
 * field's typed `InvalidInputError` when its result union has one, otherwise a
 * `BAD_USER_INPUT` error; both name the argument.
 */
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import {
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLResolveInfo,
} from 'graphql';
import { jsonProblem, stringProblem, type StringKind } from '../../src/model/value-checks';
import { InvalidInputError } from './error-classes';

const pluginName = 'inputHygiene';
export default pluginName;

/** `extensions` of an argument or input field whose strings are free text (tab and line breaks allowed). */
export const FREE_TEXT = { inputKind: 'free-text' } as const;

interface Refusal {
  path: string;
  problem: string;
}

/** Checks one coerced value; returns the first refusal. */
type Check = (value: unknown, path: string) => Refusal | null;

const NOT_STRINGS = new Set(['Int', 'Float', 'Boolean', 'DateTime']);

function kindOf(extensions: Readonly<Record<string, unknown>> | null | undefined): StringKind {
  return extensions?.inputKind === FREE_TEXT.inputKind ? 'free-text' : 'identifier';
}

/** The check of an input type; null when the type can hold no string. */
function checkFor(type: GraphQLInputType, kind: StringKind, seen: Set<GraphQLInputType>): Check | null {
  if (isNonNullType(type)) {
    return checkFor(type.ofType, kind, seen);
  }
  if (isListType(type)) {
    const item = checkFor(type.ofType, kind, seen);
    if (item === null) {
      return null;
    }
    return (value, path) => {
      const items: unknown[] = Array.isArray(value) ? value : [value];
      for (let i = 0; i < items.length; i++) {
        const refusal = items[i] === null ? null : item(items[i], `${path}[${i}]`);
        if (refusal !== null) {
          return refusal;
        }
      }
      return null;
    };
  }
  if (isInputObjectType(type)) {
    if (seen.has(type)) {
      return null; // a recursive input type: its strings are checked where the recursion starts
    }
    seen.add(type);
    const fields = Object.values(type.getFields())
      .map((field) => ({ name: field.name, check: checkFor(field.type, kindOf(field.extensions), seen) }))
      .filter((field): field is { name: string; check: Check } => field.check !== null);
    seen.delete(type);
    return fields.length === 0 ? null : (value, path) => checkFields(fields, value, path);
  }
  if (isEnumType(type) || NOT_STRINGS.has(type.name)) {
    return null;
  }
  // String, ID, JSON and any other scalar: strings directly, or inside a JSON value.
  return (value, path) => {
    if (typeof value === 'string') {
      const problem = stringProblem(value, kind);
      return problem === null ? null : { path, problem };
    }
    const found = jsonProblem(value, () => kind);
    if (found === null) {
      return null;
    }
    const inner = found.path === '' || found.path.startsWith('[') ? found.path : `.${found.path}`;
    return { path: `${path}${inner}`, problem: found.problem };
  };
}

function checkFields(fields: Array<{ name: string; check: Check }>, value: unknown, path: string): Refusal | null {
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  const record = value as Record<string, unknown>;
  for (const { name, check } of fields) {
    const item = record[name];
    if (item !== undefined && item !== null) {
      const refusal = check(item, path === '' ? name : `${path}.${name}`);
      if (refusal !== null) {
        return refusal;
      }
    }
  }
  return null;
}

const argumentChecks = new WeakMap<GraphQLField<unknown, unknown>, Check | null>();

/** The check of a field's arguments, made once per field of the schema. */
function argumentCheck(info: GraphQLResolveInfo): Check | null {
  const field = info.parentType.getFields()[info.fieldName] as GraphQLField<unknown, unknown> | undefined;
  if (field === undefined) {
    throw new Error(`input hygiene: no field ${info.parentType.name}.${info.fieldName} in the schema`);
  }
  let check = argumentChecks.get(field);
  if (check === undefined) {
    const args = field.args
      .map((arg) => ({ name: arg.name, check: checkFor(arg.type, kindOf(arg.extensions), new Set()) }))
      .filter((arg): arg is { name: string; check: Check } => arg.check !== null);
    check = args.length === 0 ? null : (value) => checkFields(args, value, '');
    argumentChecks.set(field, check);
  }
  return check;
}

/** The refusal as the field reports it: typed when its result union has `InvalidInputError`. */
function refusalError(refusal: Refusal, typed: boolean): Error {
  if (typed) {
    // Mutations take one `input`; their typed errors name the input field (docs/graphql.md#input-rules).
    const field = refusal.path.replace(/^input\./, '');
    return new InvalidInputError(`${field} ${refusal.problem}`, field);
  }
  return new GraphQLError(`${refusal.path} ${refusal.problem}`, {
    extensions: { code: 'BAD_USER_INPUT', field: refusal.path },
  });
}

export class InputHygienePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    return guarded(resolver, fieldConfig);
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    return subscribe === undefined ? undefined : guarded(subscribe, fieldConfig);
  }
}

function guarded<Types extends SchemaTypes>(
  resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
  fieldConfig: PothosOutputFieldConfig<Types>,
): GraphQLFieldResolver<unknown, Types['Context'], object> {
  if (Object.keys(fieldConfig.args).length === 0) {
    return resolver;
  }
  const errorTypes = fieldConfig.extensions?.pothosErrors;
  const typed = Array.isArray(errorTypes) && errorTypes.includes(InvalidInputError);
  return (parent, args, context, info) => {
    const refusal = argumentCheck(info)?.(args, '') ?? null;
    if (refusal !== null) {
      throw refusalError(refusal, typed);
    }
    return resolver(parent, args, context, info);
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos' plugin registry is a global namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      inputHygiene: InputHygienePlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, InputHygienePlugin);
