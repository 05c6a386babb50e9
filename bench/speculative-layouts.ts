/**
 * Speculative layout cost in a long gate (docs/gating.md#speculative-layouts): a tenant of P
 * untrusted projects (default 40, six jobs and a project stanza each) and a gate of 100 items of
 * which 20 change configuration (each adds a job to its project). Every item behind a
 * configuration change proposes the configuration of all the changes ahead of it, as its
 * speculative merge returns it; the engine resolves its layout and freezes its job graph with it.
 * Measured per item, with the layout cache (as the engine runs) and without it (a fresh cache per
 * item: what reparsing for every item would cost). Then the whole gate again, as after a reset.
 *
 *   npx tsx bench/speculative-layouts.ts [items] [config-changing] [projects]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildLayoutSync, type BuildLayoutInput } from '../src/config/layout-builder';
import { SpeculativeLayouts } from '../src/config/speculative-layouts';
import { freezeOutcome } from '../src/engine/layout-adapter';
import { speculativeView } from '../src/engine/speculative-view';
import type { ProposedConfig } from '../src/model/proposed-config';
import { memoryLayoutInput, type MemoryProject } from '../test/helpers/memory-layout';

const CONFIG = `
- pipeline: {name: gate, manager: dependent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
`;

function projectFile(index: number, extraJobs: number): string {
  const jobs = Array.from({ length: 6 + extraJobs }, (_, j) => `job-${index}-${j}`);
  return [
    ...jobs.map((job) => `- job: {name: ${job}, run: ${job}.sh, vars: {index: ${index}}, files: ['^src/']}`),
    `- project: {gate: {jobs: [${jobs.join(', ')}]}}`,
    '',
  ].join('\n');
}

function tenant(projects: number): BuildLayoutInput {
  const list: MemoryProject[] = [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': CONFIG } } }];
  for (let i = 0; i < projects; i++) {
    list.push({ name: `org/p${i}`, branches: { master: { '.zuul.yaml': projectFile(i, 0) } } });
  }
  return memoryLayoutInput(list);
}

/** For each item, the configuration its merged state proposes (cumulative over the changes ahead). */
function gateProposals(
  items: number,
  changing: number,
  projects: number,
): Array<{ project: number; proposed: ProposedConfig[] }> {
  const every = Math.max(1, Math.floor(items / changing));
  const added = new Map<number, number>();
  const out: Array<{ project: number; proposed: ProposedConfig[] }> = [];
  for (let i = 0; i < items; i++) {
    const project = i % projects;
    if (i % every === 0 && i / every < changing) {
      added.set(project, (added.get(project) ?? 0) + 1);
    }
    const proposed = [...added].map(([p, extra]) => ({
      project: `review.example.com/org/p${p}`,
      branch: 'master',
      files: [{ path: '.zuul.yaml', text: projectFile(p, extra) }],
      ignoredLocations: [],
    }));
    out.push({ project, proposed });
  }
  return out;
}

function run(label: string, gate: ReturnType<typeof gateProposals>, resolver: (i: number) => SpeculativeLayouts) {
  const times: number[] = [];
  for (const [i, item] of gate.entries()) {
    const started = performance.now();
    const speculative = resolver(i);
    const view = speculativeView(speculative.live, speculative.resolve(item.proposed), freezeOutcome);
    const frozen = view.freezeJobGraph('gate', `org/p${item.project}`, 'master', ['README']);
    if (frozen.status === 'error' || view.errors.length > 0) {
      throw new Error(`item ${i}: ${JSON.stringify(frozen)} ${view.errors.join('\n')}`);
    }
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return {
    label,
    totalMs: Math.round(total),
    meanMsPerItem: Number((total / times.length).toFixed(2)),
    p50Ms: Number(sorted[Math.floor(sorted.length / 2)].toFixed(2)),
    maxMs: Number(sorted[sorted.length - 1].toFixed(2)),
  };
}

function main(): void {
  const items = Number(process.argv[2] ?? 100);
  const changing = Number(process.argv[3] ?? 20);
  const projects = Number(process.argv[4] ?? 40);
  const input = tenant(projects);
  const started = performance.now();
  const live = buildLayoutSync(input);
  const liveMs = performance.now() - started;
  const gate = gateProposals(items, changing, projects);
  const cached = new SpeculativeLayouts(live, input, 64);
  const withCache = run('cached (as the engine runs)', gate, () => cached);
  const buildsFirst = cached.builds;
  const again = run('cached, the gate again (after a reset)', gate, () => cached);
  const uncached = run('no cache (reparse per item)', gate, () => new SpeculativeLayouts(live, input));
  const figures = {
    items,
    configChanging: changing,
    projects,
    jobs: [...live.jobs.keys()].length,
    liveLayoutBuildMs: Math.round(liveMs),
    layoutsBuilt: buildsFirst,
    layoutsBuiltAfterReset: cached.builds - buildsFirst,
    runs: [withCache, again, uncached],
    loadAverage: os.loadavg().map((load) => Number(load.toFixed(1))),
  };
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}

main();
