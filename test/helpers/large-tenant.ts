/**
 * A large tenant in real bare git repositories, for the configuration-load benchmark
 * (bench/config-load.ts) and the reload-responsiveness test: a config project with the
 * pipelines and a base job, and `projects` untrusted projects x 3 branches with
 * `jobsPerProject` jobs each (defined on every branch).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { mapConcurrent } from '../../src/sources/git-connection';

export const BRANCHES = ['master', 'stable/1', 'stable/2'];

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

export function projectConfig(index: number, jobsPerProject: number): string {
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

export const COMMON = `- pipeline:\n    name: check\n    manager: independent\n    trigger:\n      bench:\n        - event: patchset-created\n
- pipeline:\n    name: gate\n    manager: dependent\n    trigger: {}\n
- nodeset:\n    name: small\n    nodes:\n      - name: node\n        label: small\n
- job:\n    name: base\n    parent: null\n    nodeset: small\n    pre-run: pre.sh\n    post-run: post.sh\n    timeout: 1800\n`;

export interface LargeTenant {
  /** Directory holding `config.git` and `org/project-NNN.git`: the git connection's `baseurl`. */
  baseDir: string;
  /** Untrusted project names. */
  projects: string[];
  /** A tenant file of one tenant `name` on connection `connection`. */
  tenantFile(name: string, connection: string): string;
}

/** Create the repositories under `baseDir` (which must exist). */
export async function createLargeTenant(
  baseDir: string,
  projects: number,
  jobsPerProject: number,
): Promise<LargeTenant> {
  await initBare(path.join(baseDir, 'config.git'));
  await fastImport(path.join(baseDir, 'config.git'), commits({ 'zuul.yaml': COMMON }, ['master']));
  const names = Array.from({ length: projects }, (_, i) => `org/project-${String(i).padStart(3, '0')}`);
  await mapConcurrent(names, 8, async (name) => {
    const repo = path.join(baseDir, `${name}.git`);
    await initBare(repo);
    await fastImport(
      repo,
      commits({ '.zuul.yaml': projectConfig(names.indexOf(name), jobsPerProject), README: `${name}\n` }, BRANCHES),
    );
  });
  return {
    baseDir,
    projects: names,
    tenantFile: (name, connection) =>
      `- tenant:\n    name: ${name}\n    source:\n      ${connection}:\n        config-projects: [config]\n        untrusted-projects:\n${names.map((n) => `          - ${n}`).join('\n')}\n`,
  };
}
