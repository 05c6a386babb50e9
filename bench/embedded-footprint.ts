/**
 * Embedded PGlite footprint of `sluice serve` on the quickstart (issue 17's table; figures in
 * docs/configuration.md#embedded-database): the real CLI on a private copy of the quickstart,
 * started twice on the same data directory, first fresh (no `./data`), then existing. For each
 * start: the time from spawning the process to the first 200 of /health/ready, and the resident
 * set size of the server process once it has been idle for a while.
 *
 *   npx tsx bench/embedded-footprint.ts [--idle SECONDS] [--runs N] [--cold-cache]
 *
 * A fresh data directory starts from the migrated template shipped in src/store/template/
 * (src/store/shipped-template.ts) when it fits, else from the pristine cluster cached by
 * src/store/pglite.ts. `--cold-cache` gives every run an empty template cache and an empty
 * temporary directory (where tsx keeps its compiled sources), so its fresh start is the first
 * start on a machine. `--no-shipped` hides the shipped template (as after a PGlite upgrade
 * before it is made again). Prints one JSON line per start and a summary (medians over the runs,
 * each run on a new copy).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrationNames } from '../src/store/migrate';
import { readShippedManifest, templateFits } from '../src/store/shipped-template';

const ROOT = path.resolve(__dirname, '..');

interface StartFigures {
  start: 'fresh' | 'existing';
  readyMs: number;
  /** CPU time the server process used until ready (user + system): less sensitive to load than readyMs. */
  cpuMs: number;
  rssIdleMb: number;
  rssPeakMb: number;
}

/**
 * The copy lives under the repository (`.tmp/`, ignored by git), on the file system `npm start`
 * writes `./data` to: creating the cluster's thousand-odd files took 2.2 s per thousand in this
 * machine's /tmp and 0.5-0.8 s in the repository's directory.
 */
function quickstartCopy(): string {
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, '.tmp', 'footprint-'));
  cpSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true });
  symlinkSync(path.join(ROOT, 'bin'), path.join(dir, 'bin'));
  return dir;
}

/** User + system CPU time of a process so far, in ms (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function startOnce(
  dir: string,
  start: StartFigures['start'],
  idleSeconds: number,
  env: Record<string, string>,
): Promise<StartFigures> {
  const began = performance.now();
  const child = spawn(process.execPath, ['bin/sluice.js', 'serve', '--config', 'examples/quickstart/sluice.yaml'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      SLUICE_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    let output = '';
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /GraphQL .*?(http:\/\/[^\s]+)\/graphql/.exec(output);
        if (match) {
          resolve(match[1]);
        }
      });
      void exited.then(() => reject(new Error(`sluice serve exited early: ${output}`)));
    });
    for (;;) {
      const res = await fetch(`${base}/health/ready`).catch(() => undefined);
      if (res?.status === 200) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const readyMs = Math.round(performance.now() - began);
    const cpuMs = cpuOf(child.pid ?? 0);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const memory = memoryOf(child.pid ?? 0);
    return { start, readyMs, cpuMs, rssIdleMb: Math.round(memory.rss), rssPeakMb: Math.round(memory.peak) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      idle: { type: 'string' },
      runs: { type: 'string' },
      'cold-cache': { type: 'boolean' },
      'no-shipped': { type: 'boolean' },
    },
  });
  const idleSeconds = Number(values.idle ?? 20);
  const runs = Number(values.runs ?? 1);
  const figures: StartFigures[] = [];
  for (let run = 0; run < runs; run++) {
    const dir = quickstartCopy();
    const env: Record<string, string> = {};
    if (values['cold-cache']) {
      env.SLUICE_CACHE_DIR = path.join(dir, 'cache');
      env.TMPDIR = path.join(dir, 'tmp');
      mkdirSync(env.TMPDIR);
    }
    if (values['no-shipped']) {
      env.SLUICE_SHIPPED_TEMPLATE = 'off';
    }
    try {
      for (const start of ['fresh', 'existing'] as const) {
        const result = await startOnce(dir, start, idleSeconds, env);
        figures.push(result);
        process.stdout.write(`${JSON.stringify({ run, ...result })}\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const load = os.loadavg().map((value) => value.toFixed(1));
  for (const start of ['fresh', 'existing'] as const) {
    const mine = figures.filter((f) => f.start === start);
    process.stdout.write(
      `${start}: ready ${median(mine.map((f) => f.readyMs))} ms (CPU ${median(mine.map((f) => f.cpuMs))} ms), idle RSS ${median(mine.map((f) => f.rssIdleMb))} MB ` +
        `(peak ${median(mine.map((f) => f.rssPeakMb))} MB), median of ${mine.length}\n`,
    );
  }
  const cache = values['cold-cache'] ? 'empty template and tsx caches' : 'caches kept';
  const manifest = readShippedManifest();
  const shipped = values['no-shipped']
    ? 'shipped template hidden'
    : manifest === undefined || !templateFits(manifest)
      ? 'no fitting shipped template'
      : `shipped template with ${manifest.migrations.length} of ${migrationNames().length} migrations`;
  process.stdout.write(`${cache}; ${shipped}; load average ${load.join(' ')} on ${os.cpus().length} cores\n`);
}

void main();
