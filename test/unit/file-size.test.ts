/**
 * No source file over 500 lines (docs/development.md#layout): a longer module is split by job.
 * Generated files (`generated/` folders, the printed `schema/schema.graphql`) and migrations are
 * exempt. A failure names each file and its length.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from '../../scripts/citations';

const ROOT = path.join(__dirname, '..', '..');
const MAX_LINES = 500;
const CODE = /\.(ts|tsx|js|mjs|cjs|graphql)$/;
const EXEMPT = [/(^|\/)generated\//, /^schema\/schema\.graphql$/, /^src\/store\/migrations\//];

function codeFiles(): string[] {
  const bin = readdirSync(path.join(ROOT, 'bin')).map((name) => `bin/${name}`);
  return [...sourceFiles(ROOT), ...bin].filter((file) => CODE.test(file) && !EXEMPT.some((rule) => rule.test(file)));
}

/** Lines as an editor counts them: a final newline does not start another line. */
function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

describe('source file size', () => {
  it('finds the source files (the walk itself works)', () => {
    const files = codeFiles();
    expect(files).toEqual(expect.arrayContaining(['src/config/service.ts', 'schema/build.ts', 'bin/sluice.js']));
    expect(files).not.toContain('schema/schema.graphql');
    expect(files.some((file) => file.startsWith('src/store/migrations/'))).toBe(false);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const tooLong = codeFiles()
      .map((file) => ({ file, lines: lineCount(readFileSync(path.join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
