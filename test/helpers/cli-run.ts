/**
 * Running the `sluice` command line in-process (src/server/cli.ts) for tests: its output is
 * captured, and the database it opens is a fresh PostgreSQL test database when `DATABASE_URL`
 * is set (the CLI reads that variable), else the embedded store of the test's data directory.
 */
import { main } from '../../src/server/cli';
import { createTestDatabase, type TestDatabase } from './database';

/** Run the CLI, capturing what it writes. */
export async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    jest.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      written[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    });
  const spies = [capture('stdout'), capture('stderr')];
  try {
    const code = await main(args);
    return { code, ...written };
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
}

/**
 * Points `DATABASE_URL` at a fresh PostgreSQL test database before the file's tests (when the
 * run has one; otherwise unsets it, so the CLI uses the embedded store) and restores it after.
 * `url()` is that database's URL, or undefined on the embedded store.
 */
export function useCliDatabase(): { url(): string | undefined } {
  const saved = process.env.DATABASE_URL;
  let postgres: TestDatabase | undefined;
  beforeAll(async () => {
    postgres = saved ? await createTestDatabase({ backend: 'postgres', migrate: false }) : undefined;
    if (postgres?.url !== undefined) {
      process.env.DATABASE_URL = postgres.url;
    } else {
      delete process.env.DATABASE_URL;
    }
  });
  afterAll(async () => {
    if (saved !== undefined) {
      process.env.DATABASE_URL = saved;
    }
    await postgres?.destroy();
  });
  return { url: () => postgres?.url };
}
