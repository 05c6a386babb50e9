/**
 * The map stays true (docs/development.md#a-newcomers-map): every repository path that
 * docs/development.md names in backticks exists. A path that starts with a top-level folder
 * (`src/…`, `test/…`) is looked up from the repository root, also inside a command
 * (`npm test -- test/…`). A bare file name (`pass.ts`, `scheduler/pass.ts`) is in the folder of
 * the path before it on the same line, else in the folder the section's heading names
 * (`### Engine (\`src/engine/\`)`), else at the root. Build outputs are not in the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const DOC = 'docs/development.md';
const ROOTS = [
  'src',
  'schema',
  'rest-compat',
  'subscriptions',
  'web',
  'test',
  'bench',
  'docs',
  'examples',
  'scripts',
  'bin',
  '.ci',
];
/** Made by builds, installs and runs; never committed. */
const OUTPUTS = ['web/dist', 'dist/', 'node_modules/', 'data/'];
const FILE_NAME = /^[\w.@-]+(\/[\w.@-]+)*\.(ts|tsx|mts|js|mjs|cjs|json|md|graphql|ya?ml|sh|css|html)$/;

export interface NamedPath {
  line: number;
  text: string;
  /** The path from the repository root it denotes. */
  resolved: string;
}

const startsAtRoot = (word: string): boolean => ROOTS.some((root) => word.startsWith(`${root}/`));
const isOutput = (word: string): boolean => OUTPUTS.some((output) => word.startsWith(output));
const folderOf = (resolved: string): string =>
  resolved.endsWith('/') ? resolved.replace(/\/$/, '') : path.posix.dirname(resolved);

/** The paths a Markdown text names in inline code, outside fenced blocks. */
export function namedPaths(markdown: string): NamedPath[] {
  const found: NamedPath[] = [];
  let headingFolder: string | null = null;
  let fenced = false;
  markdown.split('\n').forEach((line, index) => {
    if (line.startsWith('```')) {
      fenced = !fenced;
      return;
    }
    if (fenced) {
      return;
    }
    const spans = [...line.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    if (/^#{1,6} /.test(line)) {
      const folder = spans.find((span) => startsAtRoot(span) && !span.includes(' '));
      headingFolder = folder === undefined ? null : folder.replace(/\/$/, '');
      return;
    }
    let lineFolder: string | null = null;
    for (const span of spans) {
      // A citation (`docs/gating.md#enqueue step 9`) names its file before the anchor.
      const code = span.replace(/#.*$/, '');
      const words = code.includes(' ') ? code.split(/\s+/).filter(startsAtRoot) : [code];
      for (const word of words) {
        if (/[<>*{}]/.test(word) || isOutput(word)) {
          continue;
        }
        let resolved: string;
        if (startsAtRoot(word)) {
          resolved = word;
        } else if (FILE_NAME.test(word)) {
          const base = word.includes('/') ? headingFolder : (lineFolder ?? headingFolder);
          resolved = base === null ? word : `${base}/${word}`;
        } else {
          continue;
        }
        found.push({ line: index + 1, text: word, resolved });
        lineFolder = folderOf(resolved);
      }
    }
  });
  return found;
}

describe('docs/development.md names only paths that exist', () => {
  const named = namedPaths(readFileSync(path.join(ROOT, DOC), 'utf8'));

  it('reads the paths of the map (the extraction itself works)', () => {
    const resolved = named.map((entry) => entry.resolved);
    expect(resolved).toEqual(
      expect.arrayContaining([
        'rest-compat/router.ts',
        'src/engine/scheduler/pass.ts', // `pass.ts` after `src/engine/scheduler/tenant-scheduler.ts`
        'src/model/changes.ts', // `changes.ts` under "Shared types (`src/model/`)"
        'test/integration/engine/check-and-gate.test.ts', // inside `npm test -- …`
      ]),
    );
    expect(resolved.some((entry) => entry.startsWith('web/dist'))).toBe(false);
  });

  it('finds every named path in the repository', () => {
    const missing = named
      .filter((entry) => !existsSync(path.join(ROOT, entry.resolved)))
      .map((entry) => `${DOC}:${entry.line}: \`${entry.text}\` (${entry.resolved}) does not exist`);
    expect(missing).toEqual([]);
  });
});

describe('namedPaths', () => {
  it('resolves bare names against the line, then the heading, then the root', () => {
    const markdown = [
      '### Engine (`src/engine/`)',
      '| `scheduler/pass.ts`, `timers.ts` | what they do |',
      '| `status.ts` | the status model |',
      '## Commands',
      '`package.json`, `npm test -- test/unit/x.test.ts`, `npm run lint`, `web/dist`, `<dataDir>/pgdata`, `docs/rest.md#a b`',
      '```',
      '`src/inside-a-fence.ts`',
      '```',
    ].join('\n');
    expect(namedPaths(markdown).map((entry) => entry.resolved)).toEqual([
      'src/engine/scheduler/pass.ts',
      'src/engine/scheduler/timers.ts',
      'src/engine/status.ts',
      'package.json',
      'test/unit/x.test.ts',
      'docs/rest.md',
    ]);
  });
});
