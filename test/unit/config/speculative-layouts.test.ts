/** Speculative layouts of proposed configuration (docs/gating.md#speculative-layouts), on in-memory projects. */
import { buildLayoutSync } from '../../../src/config/layout-builder';
import { SpeculativeLayouts } from '../../../src/config/speculative-layouts';
import { freezeOutcome, toEngineLayout } from '../../../src/engine/layout-adapter';
import { speculativeView } from '../../../src/engine/speculative-view';
import type { ProposedConfig } from '../../../src/model/proposed-config';
import { memoryLayoutInput, type MemoryProject } from '../../helpers/memory-layout';

const CONFIG = `
- pipeline: {name: check, manager: independent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
`;
const APP = `
- job: {name: unit, run: unit.sh}
- job: {name: docs, run: docs.sh, files: ['^docs/']}
- project: {check: {jobs: [unit, docs]}}
`;

function setUp(app = APP, options?: string, dynamicBranches?: string[], configText = CONFIG) {
  const projects: MemoryProject[] = [
    { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': configText } } },
    { name: 'org/app', options, branches: { master: { '.zuul.yaml': app } } },
  ];
  const input = memoryLayoutInput(projects);
  // What the tenant loader lists from the repository's branches (the memory projects have none besides master).
  input.projects = input.projects.map((p) => (p.trusted ? p : { ...p, dynamicBranches }));
  const live = buildLayoutSync(input);
  const speculative = new SpeculativeLayouts(live, input);
  const view = (proposed: ProposedConfig[]) => speculativeView(live, speculative.resolve(proposed), freezeOutcome);
  return { live, speculative, view };
}

const app = (text: string, branch = 'master'): ProposedConfig => ({
  project: 'review.example.com/org/app',
  branch,
  files: [{ path: '.zuul.yaml', text }],
  ignoredLocations: [],
});
const config = (text: string): ProposedConfig => ({
  project: 'review.example.com/config',
  branch: 'master',
  files: [{ path: 'zuul.yaml', text }],
  ignoredLocations: [],
});

function jobsOf(outcome: ReturnType<ReturnType<typeof setUp>['view']>, files?: string[]): string[] {
  const frozen = outcome.freezeJobGraph('check', 'org/app', 'master', files);
  if (frozen.status !== 'ok') {
    throw new Error(JSON.stringify(frozen));
  }
  return frozen.jobs.map((job) => job.name);
}

describe('speculative layouts', () => {
  it("applies an untrusted project's proposed jobs and project stanza", () => {
    const { view } = setUp();
    const proposal = `${APP}- job: {name: extra, run: extra.sh}\n- project: {check: {jobs: [extra]}}\n`;
    const outcome = view([app(proposal)]);
    expect(outcome.errors).toEqual([]);
    expect(jobsOf(outcome, ['README'])).toEqual(['unit', 'extra']);
  });

  it('blames the errors the proposal brings, with file and line, and those of the project-branch it changes', () => {
    // The live configuration already has an error (a stanza naming a job nobody defined) in the
    // config project: a change to org/app is not blamed for it.
    const missing = `${CONFIG}- project: {name: org/app, check: {jobs: [missing]}}\n`;
    const { view } = setUp(APP, undefined, undefined, missing);
    const proposal = `${APP}- job: {name: bad, parent: nowhere, run: x.sh}\n`;
    const outcome = view([app(proposal)]);
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toContain('nowhere');
    expect(outcome.errors[0]).toMatch(/\.zuul\.yaml", line 5/);
    // In org/app itself, as in the reference, an error that was there is listed on a change to it.
    const { view: viewOwn } = setUp(`${APP}- project: {check: {jobs: [missing]}}\n`);
    const own = viewOwn([app(`${APP}- project: {check: {jobs: [missing]}}\n- job: {name: fine, run: f.sh}\n`)]);
    expect(own.errors).toHaveLength(1);
    expect(own.errors[0]).toContain('missing');
    // Behind the item that changed it, an item proposing the same is not blamed again.
    const { speculative } = setUp(`${APP}- project: {check: {jobs: [missing]}}\n`);
    const same = app(`${APP}- project: {check: {jobs: [missing]}}\n- job: {name: fine, run: f.sh}\n`);
    expect(speculative.resolve([same], [same]).errors).toEqual([]);
  });

  it('blames the warnings the proposal brings by the same rule, without blocking it', () => {
    const { view } = setUp();
    const outcome = view([app(`${APP}- job: {name: ahead, run: a.sh, branches: '^(?!stable)'}\n`)]);
    expect(outcome.errors).toEqual([]);
    expect(outcome.warnings).toHaveLength(1);
    expect(outcome.warnings[0]).toMatch(/^Zuul encountered a deprecated syntax[\s\S]*\.zuul\.yaml", line 5/);
    expect(view([app(`${APP}- job: {name: extra, run: extra.sh}\n`)]).warnings).toEqual([]);
  });

  it("validates a config project's proposal without using it", () => {
    const { view } = setUp();
    const added = view([
      config(
        `${CONFIG}- job: {name: trusted-extra, run: t.sh}\n- project: {name: org/app, check: {jobs: [trusted-extra]}}\n`,
      ),
    ]);
    expect(added.errors).toEqual([]);
    expect(jobsOf(added, ['README'])).toEqual(['unit']);
    const broken = view([config(`${CONFIG}- job: {name: base2, parent: nowhere}\n`)]);
    expect(broken.errors.join('\n')).toContain('nowhere');
  });

  it('keeps one layout per proposed content and none for a proposal equal to the live files', () => {
    const { speculative } = setUp();
    expect(speculative.resolve([app(APP)]).errors).toEqual([]);
    expect(speculative.builds).toBe(0);
    const proposal = `${APP}- job: {name: extra, run: extra.sh}\n`;
    const first = speculative.resolve([app(proposal)]);
    expect(speculative.resolve([app(proposal)]).layout).toBe(first.layout);
    expect(speculative.builds).toBe(1);
  });

  it('runs a job whose configuration the proposal changes despite its file matchers (match-on-config-updates)', () => {
    const { view } = setUp();
    expect(jobsOf(view([app(APP.replace('docs.sh', 'docs2.sh'))]), ['README'])).toEqual(['unit', 'docs']);
    const off = APP.replace("files: ['^docs/']", "files: ['^docs/'], match-on-config-updates: false");
    const { view: viewOff } = setUp(off);
    expect(jobsOf(viewOff([app(off.replace('docs.sh', 'docs2.sh'))]), ['README'])).toEqual(['unit']);
  });

  it('compares a job with the layout of the item ahead for match-on-config-updates', () => {
    const { live, speculative } = setUp();
    const engine = toEngineLayout(live, speculative);
    const changed = app(APP.replace('docs.sh', 'docs2.sh'));
    const frozen = (proposed: ProposedConfig[], ahead?: ProposedConfig[]) => {
      const outcome = engine.speculative?.(proposed, ahead).freezeJobGraph('check', 'org/app', 'master', ['README']);
      return outcome?.status === 'ok' ? outcome.jobs.map((job) => job.name) : outcome;
    };
    // At the head the live layout is compared with: the changed job runs.
    expect(frozen([changed])).toEqual(['unit', 'docs']);
    // Behind the item that changed `docs`, an item proposing the same configuration changes no job.
    expect(frozen([changed], [changed])).toEqual(['unit']);
    // One that changes `docs` again still runs it.
    expect(frozen([app(APP.replace('docs.sh', 'docs3.sh'))], [changed])).toEqual(['unit', 'docs']);
  });

  it('loads the proposed configuration of an always-dynamic branch', () => {
    const { view, speculative } = setUp(APP, "{always-dynamic-branches: ['feature/.*']}", ['feature/x']);
    expect(speculative.location('review.example.com/org/app')).toEqual({
      extraConfigPaths: [],
      dynamicBranches: ['feature/x'],
    });
    const proposal = `- job: {name: feature-only, run: f.sh}\n- project: {check: {jobs: [feature-only]}}\n`;
    const frozen = view([app(proposal, 'feature/x')]).freezeJobGraph('check', 'org/app', 'feature/x', ['a']);
    expect(frozen.status === 'ok' ? frozen.jobs.map((job) => job.name) : frozen).toEqual(['feature-only']);
  });
});
