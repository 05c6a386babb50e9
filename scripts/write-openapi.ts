/**
 * Writes the OpenAPI documents of both REST shapes to docs/ (test/unit/rest/openapi-fresh.test.ts
 * fails when they are stale). Run: npx tsx scripts/write-openapi.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiFiles } from '../rest-compat/openapi-files';

for (const [file, text] of openApiFiles()) {
  writeFileSync(join(process.cwd(), file), text);
  process.stdout.write(`wrote ${file}\n`);
}
