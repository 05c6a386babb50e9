import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { openApiFiles } from '../../../rest-compat/openapi-files';

describe('OpenAPI documents in docs/', () => {
  it.each(openApiFiles())('%s matches the route table (run: npx tsx scripts/write-openapi.ts)', (file, text) => {
    expect(readFileSync(join(process.cwd(), file), 'utf8')).toBe(text);
  });

  it.each(openApiFiles())('%s holds compilable response schemas', (_file, text) => {
    const document = JSON.parse(text) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
      >;
    };
    expect(document.openapi).toBe('3.1.0');
    const ajv = new Ajv2020({ strict: false });
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses)) {
          for (const media of Object.values(response.content ?? {})) {
            expect(() => ajv.compile(media.schema)).not.toThrow();
          }
        }
      }
    }
  });
});
