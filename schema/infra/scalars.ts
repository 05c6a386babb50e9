/** Custom scalars: DateTime (ISO-8601 in UTC) and JSON (any JSON value). */
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from './builder';

builder.scalarType('DateTime', {
  description: 'A point in time, serialized as an ISO-8601 string in UTC (for example 2026-01-31T12:00:00.000Z).',
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) {
      throw new GraphQLError('DateTime must be an ISO-8601 string');
    }
    return parseDate(ast.value);
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value: object, array, string, number, boolean or null.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => literalToJson(ast),
});

function parseDate(value: unknown): Date {
  if (typeof value !== 'string') {
    throw new GraphQLError('DateTime must be an ISO-8601 string');
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new GraphQLError(`Invalid DateTime "${value}"`);
  }
  return date;
}

function literalToJson(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map(literalToJson);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value)]));
    default:
      throw new GraphQLError('Variables are not allowed inside JSON literals');
  }
}
