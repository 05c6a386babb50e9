/**
 * The REST runner compiles each operation with graphql-jit on first use; an operation that does
 * not compile would answer 500 on its first request. Every document the REST layer can run is
 * compiled here against the real schema.
 */
import { Kind, type DocumentNode } from 'graphql';
import { schema } from '../../../schema';
import { CompiledOperations } from '../../../rest-compat/operation-runner';
import * as generated from '../../../rest-compat/generated/graphql';

const documents = Object.entries(generated).filter(
  (entry): entry is [string, DocumentNode] =>
    entry[0].endsWith('Document') && typeof entry[1] === 'object' && (entry[1] as DocumentNode).kind === Kind.DOCUMENT,
);

it('finds the REST operations', () => {
  expect(documents.length).toBeGreaterThan(40);
});

it.each(documents)('compiles %s', (_name, document) => {
  const compiled = new CompiledOperations(schema).get(document);
  expect(typeof compiled.query).toBe('function');
});

it('names the reasons of an operation that does not compile', () => {
  const broken: DocumentNode = { kind: Kind.DOCUMENT, definitions: [] };
  expect(() => new CompiledOperations(schema).get(broken)).toThrow(/REST operation does not compile: .+/);
});
