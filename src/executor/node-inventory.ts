/**
 * The node inventory of a build (docs/executor.md "Nodes"): every node of the build's nodeset
 * with its names, label, groups and how to reach it, written as JSON to `work/inventory.json`
 * (`SLUICE_INVENTORY_FILE`). The reference gives Ansible an inventory with `all.hosts.<name>`
 * host variables (`ansible_host`, `ansible_user`, `nodepool.label`, ...) and the nodeset's groups
 * as `all.children`; the same shape is under `all`, next to a flat `nodes` list for scripts.
 * When the build has SSH nodes, `work/ssh/config` and `work/ssh/known_hosts` let a step run
 * `ssh -F "$SLUICE_SSH_CONFIG" <node name> ...` with the scanned host keys and the executor's key
 * (steps on the executor) or the build's forwarded agent (steps on an SSH primary node).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildNode, BuildRequestParams } from '../model/build-request';

/** One node of the flat `nodes` list. */
export interface InventoryNode {
  name: string;
  aliases: string[];
  label: string;
  groups: string[];
  /** The node the steps run on (the nodeset's first node). */
  primary: boolean;
  /** Launcher node id; null for the built-in local gateway's nodes (the executor host itself). */
  id: string | null;
  provider: string | null;
  connection_type: 'local' | 'ssh';
  /** The launcher connection (service configuration) of the node. */
  connection: string | null;
  host: string | null;
  port: number | null;
  username: string | null;
  interface_ip: string | null;
  /** Local nodes: the node's directory on the executor host. */
  directory: string | null;
  host_keys: string[];
}

/** Host variables of `all.hosts.<name>`, named as in the reference's inventory (plus the job's `host-vars` of the name). */
export interface InventoryHostVars {
  [name: string]: unknown;
  ansible_connection: 'local' | 'ssh';
  ansible_host: string;
  ansible_port: number | null;
  ansible_user: string | null;
  ansible_ssh_private_key_file?: string;
  nodepool: { label: string; provider: string | null; interface_ip: string | null };
  sluice_node_id: string | null;
  sluice_node_dir: string | null;
}

export interface NodeInventory {
  /** Name of the primary node; null when the job has no nodes. */
  primary: string | null;
  nodes: InventoryNode[];
  /** Group name -> names of its nodes, as in the nodeset definition. */
  groups: Record<string, string[]>;
  /** Files for `ssh` to the build's SSH nodes; null when it has none. */
  ssh: { config_file: string; known_hosts_file: string } | null;
  all: {
    hosts: Record<string, InventoryHostVars>;
    children: Record<string, { hosts: Record<string, null>; vars?: Record<string, unknown> }>;
  };
}

export interface NodeFilesInput {
  params: BuildRequestParams;
  workspaceRoot: string;
  /** The private key file the executor reaches an SSH node with (undefined: none). */
  sshKeyFor(node: BuildNode): string | undefined;
  /** The steps run on an SSH primary node: its sessions forward the build's agent instead of naming key files. */
  remoteSteps?: boolean;
}

/** Files under `<workspace>/work/` for the node inventory. */
export function nodeFiles(workspaceRoot: string): {
  inventory: string;
  sshDir: string;
  sshConfig: string;
  knownHosts: string;
} {
  const work = path.join(workspaceRoot, 'work');
  return {
    inventory: path.join(work, 'inventory.json'),
    sshDir: path.join(work, 'ssh'),
    sshConfig: path.join(work, 'ssh', 'config'),
    knownHosts: path.join(work, 'ssh', 'known_hosts'),
  };
}

/**
 * The nodes of the build paired with their nodeset entries. `params.nodes[i]` is node i of the
 * nodeset; without launcher nodes (the built-in local gateway) every node is the executor host
 * and its directory the build's workspace.
 */
export function buildInventory(input: NodeFilesInput): NodeInventory {
  const { params, workspaceRoot } = input;
  const nodeset = params.nodeset ?? {
    name: '',
    nodes: (params.nodes ?? []).map((node, index) => ({ name: `node${index + 1}`, aliases: [], label: node.label })),
    groups: [],
  };
  const launched = params.nodes !== undefined && params.nodes.length === nodeset.nodes.length ? params.nodes : null;
  const files = nodeFiles(workspaceRoot);
  const groupsOf = (names: string[]): string[] =>
    nodeset.groups.filter((group) => group.nodes.some((member) => names.includes(member))).map((group) => group.name);

  const nodes: InventoryNode[] = nodeset.nodes.map((entry, index) => {
    const node = launched?.[index];
    const base = {
      name: entry.name,
      aliases: entry.aliases,
      label: entry.label,
      groups: groupsOf([entry.name, ...entry.aliases]),
      primary: index === 0,
    };
    if (!node) {
      return {
        ...base,
        id: null,
        provider: null,
        connection_type: 'local',
        connection: null,
        host: 'localhost',
        port: null,
        username: null,
        interface_ip: null,
        directory: workspaceRoot,
        host_keys: [],
      };
    }
    return {
      ...base,
      id: node.id,
      provider: node.provider ?? null,
      connection_type: node.connectionType,
      connection: node.connection ?? null,
      host: node.host,
      port: node.port,
      username: node.username,
      interface_ip: node.interfaceIp ?? null,
      directory: node.connectionType === 'local' ? node.path : null,
      host_keys: node.hostKeys,
    };
  });

  const hosts: Record<string, InventoryHostVars> = {};
  nodes.forEach((node, index) => {
    const launchedNode = launched?.[index];
    const keyFile =
      launchedNode?.connectionType === 'ssh' && !input.remoteSteps ? input.sshKeyFor(launchedNode) : undefined;
    const vars: InventoryHostVars = {
      ansible_connection: node.connection_type,
      ansible_host: node.host ?? 'localhost',
      ansible_port: node.port,
      ansible_user: node.username,
      ...(keyFile !== undefined ? { ansible_ssh_private_key_file: keyFile } : {}),
      nodepool: { label: node.label, provider: node.provider, interface_ip: node.interface_ip },
      sluice_node_id: node.id,
      sluice_node_dir: node.directory,
    };
    for (const name of [node.name, ...node.aliases]) {
      hosts[name] = { ...params.job.hostVars?.[name], ...vars };
    }
  });
  const children: NodeInventory['all']['children'] = {};
  const groups: Record<string, string[]> = {};
  for (const group of nodeset.groups) {
    groups[group.name] = [...group.nodes];
    const groupVars = params.job.groupVars?.[group.name];
    children[group.name] = {
      hosts: Object.fromEntries(group.nodes.map((name) => [name, null])),
      ...(groupVars ? { vars: groupVars } : {}),
    };
  }
  const hasSsh = nodes.some((node) => node.connection_type === 'ssh');
  return {
    primary: nodes[0]?.name ?? null,
    nodes,
    groups,
    ssh: hasSsh ? { config_file: files.sshConfig, known_hosts_file: files.knownHosts } : null,
    all: { hosts, children },
  };
}

/** Names usable as an ssh_config `Host` pattern (no wildcards, negation or spaces). */
const SSH_HOST_NAME = /^[A-Za-z0-9._-]+$/;

/** `ssh_config` entries reaching every SSH node by its names with the executor's key and the scanned host keys. */
export function sshConfigText(inventory: NodeInventory): string {
  const blocks: string[] = [];
  for (const node of inventory.nodes) {
    const names = [node.name, ...node.aliases].filter((name) => SSH_HOST_NAME.test(name));
    if (node.connection_type !== 'ssh' || node.host === null || names.length === 0 || inventory.ssh === null) {
      continue;
    }
    const keyFile = inventory.all.hosts[node.name]?.ansible_ssh_private_key_file;
    const lines = [
      `Host ${names.join(' ')}`,
      `  HostName ${node.host}`,
      `  Port ${node.port ?? 22}`,
      ...(node.username === null ? [] : [`  User ${node.username}`]),
      ...(keyFile === undefined ? [] : [`  IdentityFile "${keyFile}"`, '  IdentitiesOnly yes']),
      `  UserKnownHostsFile "${inventory.ssh.known_hosts_file}"`,
      `  StrictHostKeyChecking ${node.host_keys.length > 0 ? 'yes' : 'no'}`,
      '  BatchMode yes',
      '  LogLevel ERROR',
    ];
    blocks.push(lines.join('\n'));
  }
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

/**
 * Write the inventory (and the SSH files when there are SSH nodes) into the workspace's `work/`
 * and return the environment variables pointing at them.
 */
export function writeNodeFiles(input: NodeFilesInput): Record<string, string> {
  const inventory = buildInventory(input);
  const files = nodeFiles(input.workspaceRoot);
  mkdirSync(path.dirname(files.inventory), { recursive: true });
  writeFileSync(files.inventory, `${JSON.stringify(inventory, null, 2)}\n`);
  if (inventory.ssh !== null) {
    mkdirSync(files.sshDir, { recursive: true, mode: 0o700 });
    const hostKeys = inventory.nodes.flatMap((node) => (node.connection_type === 'ssh' ? node.host_keys : []));
    writeFileSync(files.knownHosts, hostKeys.map((line) => `${line}\n`).join(''), { mode: 0o600 });
    writeFileSync(files.sshConfig, sshConfigText(inventory), { mode: 0o600 });
  }
  const primary = input.params.nodes?.[0];
  return {
    SLUICE_INVENTORY_FILE: files.inventory,
    SLUICE_NODE_NAME: inventory.primary ?? '',
    // Only a launcher's local node has a directory of its own (it is the workspace root).
    SLUICE_NODE_DIR: primary?.connectionType === 'local' ? (primary.path ?? '') : '',
    SLUICE_SSH_CONFIG: inventory.ssh?.config_file ?? '',
    SLUICE_SSH_KNOWN_HOSTS: inventory.ssh?.known_hosts_file ?? '',
  };
}
