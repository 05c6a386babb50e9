/**
 * Configuration loading benchmark: one tenant of 200 projects x 3 branches with 2,000 jobs
 * (10 per project, each defined on every branch) in real bare git repositories in a temporary
 * directory, loaded from scratch through the git connection. Target: under 5 s. It also reports
 * the longest event-loop stall during each load (perf_hooks.monitorEventLoopDelay): the layout is
 * built in slices (src/config/time-slice.ts) so that the process keeps answering while it loads.
 *
 *   npx tsx bench/config-load.ts [--projects 200] [--jobs-per-project 10] [--runs 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readTenantFile, tenantProblemErrors } from '../src/config/load-tenants';
import { buildLayout } from '../src/config/layout-builder';
import { readTenantProjects } from '../src/config/tenant-loader';
import { freezeJobGraph } from '../src/config/freeze';
import { GitConnection } from '../src/sources/git-connection';
import type { ConnectionSet } from '../src/config/tenant-loader';
import { createLargeTenant } from '../test/helpers/large-tenant';
import { cpuPerTurn } from '../test/helpers/event-loop-turns';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { projects: { type: 'string' }, 'jobs-per-project': { type: 'string' }, runs: { type: 'string' } },
  });
  const projects = Number(values.projects ?? 200);
  const jobsPerProject = Number(values['jobs-per-project'] ?? 10);
  const runs = Number(values.runs ?? 3);
  const base = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-config-'));
  try {
    const genStart = performance.now();
    const tenant = await createLargeTenant(base, projects, jobsPerProject);
    const genMs = performance.now() - genStart;
    const tenantFile = tenant.tenantFile('bench', 'bench');
    const timings: number[] = [];
    const maxStalls: number[] = [];
    const phases: string[] = [];
    let summary = '';
    for (let run = 0; run < runs; run++) {
      // A fresh connection per run: nothing is cached between runs.
      const connections: ConnectionSet = {
        drivers: { bench: 'git' },
        git: new Map([['bench', new GitConnection('bench', { driver: 'git', baseurl: base, pollInterval: 60 })]]),
      };
      const stalls = monitorEventLoopDelay({ resolution: 5 });
      stalls.enable();
      const turns = cpuPerTurn();
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const { abide, problems } = readTenantFile(tenantFile, connections);
      const read = await readTenantProjects(abide.tenants[0], connections);
      const readMs = performance.now() - start;
      const layout = await buildLayout({
        uuid: `run-${run}`,
        now: new Date(),
        tenant: abide.tenants[0],
        abide,
        connections: connections.drivers,
        projects: read.projects,
        initialErrors: [...tenantProblemErrors('bench', problems), ...read.errors],
      });
      const elapsed = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      stalls.disable();
      const turnCpuMs = turns.stop();
      // The histogram records each loop turn's delay past the sampling interval, in ns.
      const stallMs = stalls.max / 1e6;
      maxStalls.push(stallMs);
      timings.push(elapsed);
      phases.push(
        `run ${run + 1}: read ${(readMs / 1000).toFixed(2)} s + build ${((elapsed - readMs) / 1000).toFixed(2)} s (this process used ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU; longest event-loop stall ${stallMs.toFixed(0)} ms, most CPU in one turn ${turnCpuMs.toFixed(0)} ms)`,
      );
      const variants = [...layout.jobs.values()].reduce((n, v) => n + v.length, 0);
      const freezeStart = performance.now();
      let frozen = 0;
      for (const project of layout.projects.values()) {
        for (const branch of project.branches) {
          const graph = freezeJobGraph(layout, { pipeline: 'check', project: project.canonicalName, branch });
          frozen += graph.status === 'ok' ? graph.jobs.length : 0;
        }
      }
      const freezeMs = performance.now() - freezeStart;
      summary = `projects=${layout.projects.size} branches=${[...layout.projects.values()].reduce((n, p) => n + p.branches.length, 0)} jobs=${layout.jobs.size - 1} variants=${variants} errors=${layout.errors.length}; froze ${frozen} jobs for every project-branch in ${freezeMs.toFixed(0)} ms`;
    }
    const sorted = [...timings].sort((a, b) => a - b);
    process.stdout.write(
      [
        `config-load: generated repositories in ${(genMs / 1000).toFixed(2)} s`,
        `config-load: ${summary}`,
        ...phases.map((p) => `config-load: ${p}`),
        `config-load: load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')} on ${os.cpus().length} CPUs`,
        `config-load: longest event-loop stall ${Math.max(...maxStalls).toFixed(0)} ms over ${runs} loads`,
        `config-load: full load ${timings.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} (median ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2)} s, target < 5 s)`,
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
