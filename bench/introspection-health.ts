/**
 * Introspection against health (docs/live.md#introspection): `/health/ready` latency while 40
 * anonymous clients send the full introspection query (graphql's `getIntrospectionQuery`) over
 * and over, next to its latency with no load, in one run. Each client sends its next query when
 * the previous answer arrived. Reports health p50/p99/max per phase, the introspection answers
 * per second and the server's CPU. The server (embedded store, in memory) and the clients
 * (plain `fetch`) run in two child processes, so the probe in this process measures the
 * server's answer and not the clients' work.
 *
 *   npx tsx bench/introspection-health.ts [clients] [seconds]
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { getIntrospectionQuery } from 'graphql';
import { defaultServiceConfig } from '../src/config/service';
import { buildApp } from '../src/server/app';
import { silentLogger } from '../src/server/logger';
import { openDatabase } from '../src/store/database';
import { migrateLatest } from '../src/store/migrate';

const CLIENTS = Number(process.argv[2] ?? 40);
const SECONDS = Number(process.argv[3] ?? 10);
const HEALTH_EVERY_MS = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function serve(): Promise<void> {
  const database = openDatabase({ kind: 'pglite' });
  await migrateLatest(database.knex);
  const app = buildApp({
    config: defaultServiceConfig(process.cwd()),
    database,
    logger: silentLogger(),
    tenants: { tenantNames: () => [], layout: () => undefined },
  });
  await app.start(0, '127.0.0.1');
  process.send?.({ url: app.url() });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'cpu') {
      const cpu = process.cpuUsage();
      process.send?.({ cpuMs: (cpu.user + cpu.system) / 1000 });
    } else {
      void app.stop().then(() => process.exit(0));
    }
  });
}

async function healthDuring(url: string, ms: number): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const started = performance.now();
    const response = await fetch(`${url}/health/ready`);
    await response.text();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
  }
  return times.sort((a, b) => a - b);
}

function line(label: string, sorted: number[]): string {
  const ms = (value: number): string => `${value.toFixed(1)} ms`;
  return `${label}: health p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1] ?? NaN)} (${sorted.length} probes)`;
}

async function main(): Promise<void> {
  const child = fork(__filename, ['serve'], {
    execArgv: [
      ...process.execArgv,
      ...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
    ],
  });
  const url = await new Promise<string>((resolve) => child.once('message', (m: { url: string }) => resolve(m.url)));
  const cpu = (): Promise<number> =>
    new Promise((resolve) => {
      child.once('message', (m: { cpuMs: number }) => resolve(m.cpuMs));
      child.send({ type: 'cpu' });
    });
  const body = JSON.stringify({ query: getIntrospectionQuery() });
  // Warm up (first schema walk, JIT).
  await (
    await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  ).text();
  const quiet = await healthDuring(url, SECONDS * 500);

  const clients = fork(__filename, ['clients', url, String(CLIENTS)], { execArgv: process.execArgv });
  await new Promise((resolve) => clients.once('message', resolve)); // started
  const cpuBefore = await cpu();
  const started = performance.now();
  const loaded = await healthDuring(url, SECONDS * 1000);
  const done = new Promise<{ answers: number; answerBytes: number; failures: number }>((resolve) =>
    clients.once('message', resolve),
  );
  clients.send({ type: 'stop' });
  const { answers, answerBytes, failures } = await done;
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = (await cpu()) - cpuBefore;
  console.log(line('no load', quiet));
  console.log(line(`${CLIENTS} introspecting clients`, loaded));
  console.log(
    `introspection: ${(answers / seconds).toFixed(1)} answers/s (${answers} in ${seconds.toFixed(1)} s, ${failures} refused or failed), ${(answerBytes / 1024).toFixed(0)} KiB each; server CPU ${(cpuMs / seconds / 10).toFixed(0)}% of one core`,
  );
  child.send({ type: 'stop' });
}

/** The introspecting clients: each sends its next query when the previous answer arrived. */
async function introspect(url: string, count: number): Promise<void> {
  const body = JSON.stringify({ query: getIntrospectionQuery() });
  let running = true;
  let answers = 0;
  let answerBytes = 0;
  let failures = 0;
  const client = async (): Promise<void> => {
    while (running) {
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = await response.text();
      if (response.ok && text.includes('"__schema"')) {
        answers += 1;
        answerBytes = text.length;
      } else {
        failures += 1;
      }
    }
  };
  const all = Array.from({ length: count }, () => client());
  process.send?.({ started: true });
  process.once('message', () => {
    running = false;
    void Promise.all(all).then(() => {
      process.send?.({ answers, answerBytes, failures });
      process.exit(0);
    });
  });
}

if (process.argv[2] === 'serve') {
  void serve();
} else if (process.argv[2] === 'clients') {
  void introspect(process.argv[3], Number(process.argv[4]));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
