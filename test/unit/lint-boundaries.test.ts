/**
 * The import-boundary lint rule (eslint.config.mjs, docs/development.md#import-boundaries):
 * in-memory files placed in a folder import across the layers, and ESLint with the project's own
 * configuration must reject the upward imports and accept the permitted ones (drivers: the
 * engine's ports, sources, store and model; the configuration: drivers through their registry).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../..');
const RULE = 'import-x/no-restricted-paths';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The boundary errors of `code` linted as if it were the file at `file` (relative to the root). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe('import boundaries', () => {
  it.each([
    [
      'src/store/repositories/probe.ts',
      "import { Engine } from '../../engine/engine';\n\nexport const probe = Engine;\n",
    ],
    ['src/store/probe.ts', "import type { SluiceApp } from '../server/app';\n\nexport type Probe = SluiceApp;\n"],
    ['src/config/probe.ts', "import { AuthFailure } from '../auth/errors';\n\nexport const probe = AuthFailure;\n"],
    [
      'src/sources/probe.ts',
      "import type { ServiceConfig } from '../config/service';\n\nexport type Probe = ServiceConfig;\n",
    ],
    [
      'src/secrets/probe.ts',
      "import type { ServiceConfig } from '../config/service';\n\nexport type Probe = ServiceConfig;\n",
    ],
    ['src/model/probe.ts', "import type { Database } from '../store/database';\n\nexport type Probe = Database;\n"],
    [
      'src/engine/probe.ts',
      "import { ExecutorWorker } from '../executor/worker';\n\nexport const probe = ExecutorWorker;\n",
    ],
    ['schema/probe.ts', "import { buildApp } from '../src/server/app';\n\nexport const probe = buildApp;\n"],
    [
      'rest-compat/probe.ts',
      "import { LiveHub } from '../subscriptions/live/live-hub';\n\nexport const probe = LiveHub;\n",
    ],
    ['src/launcher/probe.ts', "import { Engine } from '../engine/engine';\n\nexport const probe = Engine;\n"],
    [
      'src/executor/probe.ts',
      "import type { PassContext } from '../engine/pass-context';\n\nexport type Probe = PassContext;\n",
    ],
    [
      'src/drivers/probe.ts',
      "import type { ServiceConfig } from '../config/service';\n\nexport type Probe = ServiceConfig;\n",
    ],
    [
      'src/drivers/github/probe.ts',
      "import type { PassContext } from '../../engine/pass-context';\n\nexport type Probe = PassContext;\n",
    ],
    ['src/drivers/git/probe.ts', "import type { Logger } from '../../server/logger';\n\nexport type Probe = Logger;\n"],
    [
      'src/config/probe.ts',
      "import { GitHubConnection } from '../drivers/github/connection';\n\nexport const probe = GitHubConnection;\n",
    ],
    ['src/engine/probe.ts', "import { DRIVERS } from '../drivers/registry';\n\nexport const probe = DRIVERS;\n"],
  ])('rejects the upward import in %s', async (file, code) => {
    const errors = await boundaryErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('docs/development.md#import-boundaries');
  });

  it('names what the folder may import', async () => {
    const errors = await boundaryErrors('src/store/probe.ts', "export { Engine } from '../engine/engine';\n");
    expect(errors).toEqual([expect.stringContaining('src/store may import only model')]);
  });

  it.each([
    [
      'src/store/probe.ts',
      "import type { BuildResult } from '../model/results';\n\nexport type Probe = BuildResult;\n",
    ],
    ['src/config/probe.ts', "import { REDACTED } from '../secrets/redact';\n\nexport const probe = REDACTED;\n"],
    ['src/engine/probe.ts', "import type { Database } from '../store/database';\n\nexport type Probe = Database;\n"],
    [
      'src/launcher/probe.ts',
      "import type { NodeGateway } from '../engine/ports/nodes';\n\nexport type Probe = NodeGateway;\n",
    ],
    [
      'src/executor/probe.ts',
      "import type { ExecutorGateway } from '../engine/ports/executor';\n\nexport type Probe = ExecutorGateway;\n",
    ],
    ['schema/probe.ts', "import { REDACTED } from '../src/secrets/redact';\n\nexport const probe = REDACTED;\n"],
    [
      'src/drivers/git/probe.ts',
      "import type { MergerGateway } from '../../engine/ports/merger';\n\nexport type Probe = MergerGateway;\n",
    ],
    ['src/drivers/git/probe.ts', "import { git } from '../../sources/git-cli';\n\nexport const probe = git;\n"],
    [
      'src/drivers/github/probe.ts',
      "import { ConnectionEventRepository } from '../../store/repositories/connection-events';\n\nexport const probe = ConnectionEventRepository;\n",
    ],
    [
      'src/config/probe.ts',
      "import { driverNamed } from '../drivers/registry';\n\nexport const probe = driverNamed;\n",
    ],
    ['src/config/probe.ts', "import type { Driver } from '../drivers/driver';\n\nexport type Probe = Driver;\n"],
    ['src/server/probe.ts', "import { schema } from '../../schema';\n\nexport const probe = schema;\n"],
    ['test/unit/probe.ts', "import { buildApp } from '../../src/server/app';\n\nexport const probe = buildApp;\n"],
  ])('accepts the permitted import in %s', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });

  it('covers every folder of src/ (only the server is unrestricted)', async () => {
    const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'server')
      .map((entry) => `src/${entry.name}`);
    for (const folder of [...folders, 'schema', 'rest-compat', 'subscriptions']) {
      const config = (await eslint.calculateConfigForFile(path.join(ROOT, folder, 'probe.ts'))) as {
        rules?: Record<string, unknown>;
      };
      expect([folder, config.rules?.[RULE]]).toEqual([folder, expect.anything()]);
    }
  });
});
