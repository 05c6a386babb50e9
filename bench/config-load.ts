/**
 * Configuration loading benchmark: one tenant of 200 projects x 3 branches with 2,000 jobs
 * (10 per project, each defined on every branch) in real bare git repositories in a temporary
 * directory, loaded from scratch through the git connection. Target: under 5 s.
 *
 *   npx tsx bench/config-load.ts [--projects 200] [--jobs-per-project 10] [--runs 3]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readTenantFile, tenantProblemErrors } from '../src/config/load-tenants';
import { buildLayout } from '../src/config/layout-builder';
import { readTenantProjects } from '../src/config/tenant-loader';
import { freezeJobGraph } from '../src/config/freeze';
import { GitConnection, mapConcurrent } from '../src/sources/git-connection';
import type { ConnectionSet } from '../src/config/tenant-loader';

const BRANCHES = ['master', 'stable/1', 'stable/2'];

function fastImport(repo: string, input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], { cwd: repo, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import failed: ${stderr}`))));
    child.stdin.end(input);
  });
}

function initBare(repo: string): Promise<void> {
  mkdirSync(repo, { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['init', '--quiet', '--bare', '--initial-branch=master'], {
      cwd: repo,
      stdio: 'ignore',
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error('git init failed'))));
  });
}

function fileBlock(file: string, text: string): string {
  return `M 644 inline ${file}\ndata ${Buffer.byteLength(text)}\n${text}\n`;
}

function commits(files: Record<string, string>, branches: string[]): string {
  const out: string[] = [];
  let mark = 0;
  for (const branch of branches) {
    mark++;
    out.push(
      `commit refs/heads/${branch}\nmark :${mark}\ncommitter Bench <bench@localhost> 1700000000 +0000\ndata 6\nconfig\n`,
    );
    if (mark > 1) {
      out.push(`from :1\n`);
    }
    for (const [file, text] of Object.entries(files)) {
      out.push(fileBlock(file, branch === 'master' ? text : `${text}\n# ${branch}\n`));
    }
    out.push('\n');
  }
  return out.join('');
}

function projectConfig(index: number, jobsPerProject: number): string {
  const jobs: string[] = [];
  const names: string[] = [];
  for (let j = 0; j < jobsPerProject; j++) {
    const name = `p${index}-job${j}`;
    names.push(name);
    jobs.push(
      `- job:\n    name: ${name}\n    parent: ${j === 0 ? 'base' : `p${index}-job0`}\n    run: scripts/${j}.sh\n    vars:\n      index: ${j}\n      nested: {project: ${index}}\n    files: ['^src/', '^tests/']\n    tags: [bench]\n`,
    );
  }
  return `${jobs.join('\n')}\n- project:\n    check:\n      jobs:\n${names.map((n) => `        - ${n}`).join('\n')}\n    gate:\n      jobs:\n${names.map((n) => `        - ${n}`).join('\n')}\n`;
}

const COMMON = `- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      bench:\n        - event: patchset-created\n
- pipeline:\n    name: gate\n    manager: dependent\n    trigger: {}\n
- nodeset:\n    name: small\n    nodes:\n      - name: node\n        label: small\n
- job:\n    name: base\n    parent: null\n    nodeset: small\n    pre-run: pre.sh\n    post-run: post.sh\n    timeout: 1800\n`;

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
    await initBare(path.join(base, 'config.git'));
    await fastImport(path.join(base, 'config.git'), commits({ 'zuul.yaml': COMMON }, ['master']));
    const names = Array.from({ length: projects }, (_, i) => `org/project-${String(i).padStart(3, '0')}`);
    await mapConcurrent(names, 8, async (name) => {
      const repo = path.join(base, `${name}.git`);
      await initBare(repo);
      await fastImport(
        repo,
        commits({ '.zuul.yaml': projectConfig(names.indexOf(name), jobsPerProject), README: `${name}\n` }, BRANCHES),
      );
    });
    const genMs = performance.now() - genStart;
    const tenantFile = `- tenant:\n    name: bench\n    source:\n      bench:\n        config-projects: [config]\n        untrusted-projects:\n${names.map((n) => `          - ${n}`).join('\n')}\n`;
    const timings: number[] = [];
    const phases: string[] = [];
    let summary = '';
    for (let run = 0; run < runs; run++) {
      // A fresh connection per run: nothing is cached between runs.
      const connections: ConnectionSet = {
        drivers: { bench: 'git' },
        git: new Map([['bench', new GitConnection('bench', { driver: 'git', baseurl: base, pollInterval: 60 })]]),
      };
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const { abide, problems } = readTenantFile(tenantFile, connections);
      const read = await readTenantProjects(abide.tenants[0], connections);
      const readMs = performance.now() - start;
      const layout = buildLayout({
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
      timings.push(elapsed);
      phases.push(
        `run ${run + 1}: read ${(readMs / 1000).toFixed(2)} s + build ${((elapsed - readMs) / 1000).toFixed(2)} s (this process used ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU)`,
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
