/** Writes schema/schema.graphql from the Pothos schema (sorted by Pothos). `--check` fails when stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { schema } from '../schema';

const file = path.join(__dirname, '..', 'schema', 'schema.graphql');
const printed = `${printSchema(schema)}\n`;

if (process.argv.includes('--check')) {
  const current = readFileSync(file, 'utf8');
  if (current !== printed) {
    console.error('schema/schema.graphql is stale: run `npm run schema:print` and commit the result.');
    process.exit(1);
  }
  console.log('schema/schema.graphql is up to date.');
} else {
  writeFileSync(file, printed);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
