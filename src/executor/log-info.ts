/**
 * The `zuul-info/` folder of a build's logs (docs/logs.md#zuul-info): `inventory.yaml`, the
 * build's nodes and variables in the reference's inventory shape (`all.hosts`, `all.children`,
 * `all.vars` with the job's variables and the `zuul` variables), and one
 * `zuul-info.<node>.txt` per node describing it. Written when the build starts and again once
 * its workspace is prepared (then `zuul.projects` and the `src_dir`s are known).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { BuildRequestParams } from '../model/build-request';
import type { WorkspaceProject } from './merger';
import type { InventoryHostVars, NodeInventory } from './node-inventory';
import { mergeVariables } from './step-environment';
import { zuulVariables } from './zuul-variables';

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
