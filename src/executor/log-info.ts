/**
 * The `zuul-info/` folder of a build's logs (docs/logs.md#zuul-info): `inventory.yaml`, the
 * build's nodes and variables in the reference's inventory shape (`all.hosts`, `all.children`,
 * `all.vars` with the job's variables and the `zuul` variables), and one
 * `zuul-info.<node>.txt` per node describing it. Written when the build starts and again once
 * its workspace is prepared (then `zuul.projects` and the `src_dir`s are known).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { BuildRequestParams, MergerItem } from '../model/build-request';
import type { WorkspaceProject } from './merger';
import type { InventoryHostVars, NodeInventory } from './node-inventory';
import { mergeVariables } from './step-environment';

export const ZUUL_INFO_DIR = 'zuul-info';
export const INVENTORY_FILE = 'inventory.yaml';

export interface LogInfoInput {
  params: BuildRequestParams;
  inventory: NodeInventory;
  logDir: string;
  logUrl: string | null;
  workspaceRoot: string;
  /** The prepared checkouts; null before the workspace is prepared (or when it could not be). */
  projects: WorkspaceProject[] | null;
}

/** Host variables published in the log: the executor's own paths (key files, node directories) stay out. */
function publishedHostVars(vars: InventoryHostVars): Record<string, unknown> {
  const published: Record<string, unknown> = { ...vars };
  delete published.ansible_ssh_private_key_file;
  delete published.sluice_node_dir;
  return published;
}

const shortName = (project: string): string => project.slice(project.lastIndexOf('/') + 1);

function projectVars(project: string, projects: WorkspaceProject[] | null): Record<string, unknown> {
  const checkout = projects?.find((p) => p.project === project);
  return {
    name: project,
    short_name: shortName(project),
    ...(checkout ? { src_dir: `src/${checkout.relativePath}` } : {}),
  };
}

function refVars(item: Omit<MergerItem, 'mergeMode'>): Record<string, unknown> {
  return {
    branch: item.branch,
    ref: item.ref,
    ...(item.change !== null ? { change: String(item.change), patchset: item.patchset } : {}),
    ...(item.oldrev !== null ? { oldrev: item.oldrev } : {}),
    ...(item.newrev !== null ? { newrev: item.newrev } : {}),
  };
}

/** The reference's `zuul` variables, as far as Sluice has them (docs/logs.md#zuul-info). */
export function zuulVariables(input: LogInfoInput): Record<string, unknown> {
  const { params, projects } = input;
  const work = path.join(input.workspaceRoot, 'work');
  const required = new Set(params.projects.map((p) => p.project));
  return {
    build: params.buildUuid,
    buildset: params.buildsetUuid,
    tenant: params.tenant,
    pipeline: params.pipeline,
    job: params.job.name,
    event_id: params.eventId,
    attempts: params.attempt,
    max_attempts: params.job.attempts,
    timeout: params.job.timeout,
    post_timeout: params.job.postTimeout,
    project: projectVars(params.item.project, projects),
    ...refVars(params.item),
    items: params.mergerItems.map((item) => ({ project: projectVars(item.project, projects), ...refVars(item) })),
    projects: Object.fromEntries(
      (projects ?? []).map((p) => [
        p.project,
        { ...projectVars(p.project, projects), checkout: p.checkout, required: required.has(p.project) },
      ]),
    ),
    log_url: input.logUrl,
    executor: {
      hostname: os.hostname(),
      src_root: path.join(input.workspaceRoot, 'src'),
      work_root: work,
      log_root: input.logDir,
      inventory_file: path.join(work, 'inventory.json'),
      result_data_file: path.join(work, 'results.json'),
    },
  };
}

/** The reference-shaped inventory published in the log. */
export function logInventory(input: LogInfoInput): Record<string, unknown> {
  const { params, inventory } = input;
  const vars = mergeVariables(params.job.vars, params.parentData, params.job.extraVars);
  return {
    all: {
      hosts: Object.fromEntries(
        Object.entries(inventory.all.hosts).map(([name, hostVars]) => [name, publishedHostVars(hostVars)]),
      ),
      children: inventory.all.children,
      vars: { ...vars, zuul: zuulVariables(input) },
    },
  };
}

function nodeInfoText(node: NodeInventory['nodes'][number]): string {
  const lines = [
    `Node: ${node.name}`,
    `Aliases: ${node.aliases.join(', ') || '-'}`,
    `Groups: ${node.groups.join(', ') || '-'}`,
    `Label: ${node.label}`,
    `Primary: ${node.primary ? 'yes' : 'no'}`,
    `Node id: ${node.id ?? '-'}`,
    `Provider: ${node.provider ?? '-'}`,
    `Connection: ${node.connection_type}${node.connection ? ` (${node.connection})` : ''}`,
    `Host: ${node.host ?? '-'}${node.port !== null ? `:${node.port}` : ''}`,
    `User: ${node.username ?? '-'}`,
    `Interface IP: ${node.interface_ip ?? '-'}`,
  ];
  return `${lines.join('\n')}\n`;
}

function writeAtomically(file: string, content: string): void {
  writeFileSync(`${file}.tmp`, content);
  renameSync(`${file}.tmp`, file);
}

/** Write `zuul-info/inventory.yaml` and the per-node files into the build's log folder. */
export function writeLogInfo(input: LogInfoInput): void {
  const dir = path.join(input.logDir, ZUUL_INFO_DIR);
  mkdirSync(dir, { recursive: true });
  writeAtomically(path.join(dir, INVENTORY_FILE), stringify(logInventory(input), { aliasDuplicateObjects: false }));
  for (const node of input.inventory.nodes) {
    if (/^[A-Za-z0-9._-]+$/.test(node.name)) {
      writeAtomically(path.join(dir, `zuul-info.${node.name}.txt`), nodeInfoText(node));
    }
  }
}
