/**
 * The gating walkthrough of docs/gating.md#try-it-with-the-quickstart, run exactly as
 * written: its shell blocks, in order, in one bash process, in a private copy of the quickstart
 * where `npm start` listens on a free port given by PORT. This also covers a port override end
 * to end: the build log is read through its `log_url`, which must follow the real port.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
  REPOSITORY_ROOT,
  freePort,
  killGroup,
  newcomerEnvironment,
  portInUse,
  quickstartCopy,
  spawnGroup,
} from '../helpers/quickstart-copy';

// Two gate runs on the embedded store, after the quickstart's first start.
jest.setTimeout(300_000);

/** The ```sh blocks of the section `heading` of a markdown document, in order. */
function shellBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) {
    throw new Error(`no section "${heading}"`);
  }
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe('docs/gating.md walkthrough', () => {
  let dir: string;
  let shell: ChildProcess | undefined;

  beforeAll(() => {
    dir = quickstartCopy();
  });

  afterAll(() => {
    if (shell) {
      killGroup(shell);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('gates a good and a broken change as the doc says, on the port PORT names', async () => {
    const blocks = shellBlocks(
      readFileSync(path.join(REPOSITORY_ROOT, 'docs', 'gating.md'), 'utf8'),
      '## Try it with the quickstart',
    );
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const port = await freePort();
    // errexit and pipefail: a failing step fails the test instead of being skipped over.
    const script = ['set -eo pipefail', ...blocks].join('\n');
    const child = spawnGroup('bash', ['-c', script], dir, newcomerEnvironment(dir, { PORT: String(port) }));
    shell = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    if (code !== 0) {
      throw new Error(`the walkthrough failed (exit ${code}):\n${output}`);
    }

    // Change 1 passed; its log was read through log_url on the real port.
    const logBase = `http://127.0.0.1:${port}/logs/example/`;
    expect(output).toMatch(
      new RegExp(`"result":"SUCCESS".*"jobName":"hello-unit","result":"SUCCESS","logUrl":"${escape(logBase)}`),
    );
    expect(output).toContain('unit tests passed');
    expect(output).toMatch(/\n[0-9a-f]{7,} Merge change 1,1 into master\n[0-9a-f]{7,} Add release notes\n/);
    expect(output).toContain('sluice: the token is valid for 600 s');
    // Change 2 failed its unit test and was not merged.
    expect(output).toMatch(/"result":"FAILURE".*"jobName":"hello-unit","result":"FAILURE"/);
    expect(output).not.toMatch(/[0-9a-f]{7,} Say goodbye instead/);
    // The last block stopped the service.
    expect(await portInUse(port)).toBe(false);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
