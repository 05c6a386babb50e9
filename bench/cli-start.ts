/**
 * Start-up time of the `sluice` command (docs/operations.md#the-sluice-command): `sluice version`,
 * `sluice token create` and `sluice serve` up to its banner, from the compiled build in dist/
 * (`npm run build`, built first here) and from the TypeScript sources (SLUICE_FROM_SOURCE=1, tsx).
 * `serve` runs the quickstart in a private copy: once on a fresh data directory, then again on
 * the data it left. Prints the median of RUNS (default 5) runs of each and the load average.
 *
 *   npx tsx bench/cli-start.ts [RUNS]
 */
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newcomerEnvironment, quickstartCopy } from '../test/helpers/quickstart-copy';

const ROOT = path.join(__dirname, '..');
const SLUICE = path.join(ROOT, 'bin', 'sluice.js');
const RUNS = Number(process.argv[2] ?? 5);
const CONFIG = 'examples/quickstart/sluice.yaml';

type Mode = 'compiled' | 'source';

function environment(dir: string, mode: Mode): Record<string, string> {
  return newcomerEnvironment(dir, {
    PORT: '0',
    SLUICE_LOG_LEVEL: 'warn',
    ...(mode === 'source' ? { SLUICE_FROM_SOURCE: '1' } : {}),
  });
}

/** Seconds one run of the command takes to exit (0 expected). */
function timed(dir: string, mode: Mode, args: string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [SLUICE, ...args], { cwd: dir, env: environment(dir, mode) });
  if (run.status !== 0) {
    throw new Error(`sluice ${args.join(' ')} exited ${run.status}: ${run.stderr.toString()}`);
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Seconds from spawning `sluice serve` to its banner; the server is then stopped with SIGTERM. */
async function serveToBanner(dir: string, mode: Mode): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [SLUICE, 'serve', '--config', CONFIG], {
    cwd: dir,
    env: environment(dir, mode),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const seconds = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/GraphQL .*\/graphql/.test(output)) {
        resolve(Number(process.hrtime.bigint() - started) / 1e9);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`sluice serve exited before its banner:\n${output}`)));
  });
  child.kill('SIGTERM');
  await exited;
  return seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function row(label: string, values: number[]): void {
  const shown = values.map((v) => v.toFixed(2)).join(' ');
  process.stdout.write(`${label.padEnd(36)} median ${median(values).toFixed(2)} s   (${shown})\n`);
}

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.js')], { stdio: 'inherit' });
  if (build.status !== 0) {
    throw new Error('npm run build failed');
  }
  process.stdout.write(
    `load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  for (const mode of ['compiled', 'source'] as const) {
    const dir = quickstartCopy();
    try {
      const token = ['token', 'create', '-c', CONFIG, '--tenant', 'example', '--sub', 'bench'];
      row(
        `${mode}: sluice version`,
        Array.from({ length: RUNS }, () => timed(dir, mode, ['version'])),
      );
      row(
        `${mode}: sluice token create`,
        Array.from({ length: RUNS }, () => timed(dir, mode, token)),
      );
      row(`${mode}: serve, fresh data directory`, [await serveToBanner(dir, mode)]);
      const again: number[] = [];
      for (let i = 0; i < Math.min(RUNS, 3); i++) {
        again.push(await serveToBanner(dir, mode));
      }
      row(`${mode}: serve, existing data`, again);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
