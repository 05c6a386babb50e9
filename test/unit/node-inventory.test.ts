/** The node inventory steps get (SLUICE_INVENTORY_FILE) and the nodeset names it is built from. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodesetOfNodes } from '../../src/executor/build-request-params';
import { buildInventory, sshConfigText, writeNodeFiles } from '../../src/executor/node-inventory';
import type { BuildNode, BuildNodeset } from '../../src/model/build-request';
import { buildParams } from '../helpers/build-params';

const FROZEN_ALTERNATIVES = [
  {
    name: 'pair',
    nodes: [
      { name: 'controller', aliases: [], label: 'small' },
      { name: 'peer', aliases: ['peer-alias'], label: 'small' },
    ],
    groups: [{ name: 'peers', nodes: ['peer'] }],
    alternatives: [],
  },
  {
    name: 'other-pair',
    nodes: [
      { name: 'a', aliases: [], label: 'small' },
      { name: 'b', aliases: [], label: 'small' },
    ],
    groups: [],
    alternatives: [],
  },
  { name: 'big', nodes: [{ name: 'big', aliases: [], label: 'large' }], groups: [], alternatives: [] },
];

const PAIR: BuildNodeset = {
  name: 'pair',
  nodes: [
    { name: 'controller', aliases: [], label: 'small' },
    { name: 'peer', aliases: ['peer-alias'], label: 'lab' },
  ],
  groups: [
    { name: 'peers', nodes: ['peer-alias'] },
    { name: 'everyone', nodes: ['controller', 'peer'] },
  ],
};

const LOCAL: BuildNode = {
  id: 'n1',
  label: 'small',
  connectionType: 'local',
  connection: 'local',
  provider: 'tenant/local-nodes',
  interfaceIp: '127.0.0.1',
  host: 'localhost',
  port: null,
  username: null,
  path: '/nodes/n1',
  hostKeys: [],
};
const SSH: BuildNode = {
  id: 'n2',
  label: 'lab',
  connectionType: 'ssh',
  connection: 'lab',
  provider: 'tenant/lab',
  interfaceIp: '10.0.0.2',
  host: '10.0.0.2',
  port: 2222,
  username: 'ci',
  path: null,
  hostKeys: ['[10.0.0.2]:2222 ssh-ed25519 AAAA'],
};

describe('nodesetOfNodes', () => {
  it('takes the alternative the launcher names, else the first one with the nodes’ labels', () => {
    const small = (index?: number) => [
      { id: 'x', label: 'small', nodesetIndex: index },
      { id: 'y', label: 'small', nodesetIndex: index },
    ];
    expect(nodesetOfNodes(FROZEN_ALTERNATIVES, small(1))?.name).toBe('other-pair');
    expect(nodesetOfNodes(FROZEN_ALTERNATIVES, small())).toEqual({
      name: 'pair',
      nodes: [
        { name: 'controller', aliases: [], label: 'small' },
        { name: 'peer', aliases: ['peer-alias'], label: 'small' },
      ],
      groups: [{ name: 'peers', nodes: ['peer'] }],
    });
    // An index whose labels do not match is not trusted.
    expect(nodesetOfNodes(FROZEN_ALTERNATIVES, small(2))?.name).toBe('pair');
    expect(nodesetOfNodes(FROZEN_ALTERNATIVES, [{ id: 'z', label: 'large' }])?.nodes).toEqual([
      { name: 'big', aliases: [], label: 'large' },
    ]);
  });

  it('names nodes of no known alternative node1, node2, ... and has no nodeset without nodes', () => {
    expect(
      nodesetOfNodes(undefined, [
        { id: 'x', label: 'gpu' },
        { id: 'y', label: 'cpu' },
      ]),
    ).toEqual({
      name: '',
      nodes: [
        { name: 'node1', aliases: [], label: 'gpu' },
        { name: 'node2', aliases: [], label: 'cpu' },
      ],
      groups: [],
    });
    expect(nodesetOfNodes(FROZEN_ALTERNATIVES, [])).toBeUndefined();
  });
});

describe('node inventory', () => {
  const keys = (node: BuildNode) => (node.connection === 'lab' ? '/keys/lab' : undefined);

  it('lists every node with its names, groups and connection, the first one primary, in the reference inventory shape too', () => {
    const inventory = buildInventory({
      params: buildParams({ params: { nodes: [LOCAL, SSH], nodeset: PAIR } }),
      workspaceRoot: '/nodes/n1',
      sshKeyFor: keys,
    });
    expect(inventory.primary).toBe('controller');
    expect(inventory.nodes).toEqual([
      {
        name: 'controller',
        aliases: [],
        label: 'small',
        groups: ['everyone'],
        primary: true,
        id: 'n1',
        provider: 'tenant/local-nodes',
        connection_type: 'local',
        connection: 'local',
        host: 'localhost',
        port: null,
        username: null,
        interface_ip: '127.0.0.1',
        directory: '/nodes/n1',
        host_keys: [],
      },
      {
        name: 'peer',
        aliases: ['peer-alias'],
        label: 'lab',
        groups: ['peers', 'everyone'],
        primary: false,
        id: 'n2',
        provider: 'tenant/lab',
        connection_type: 'ssh',
        connection: 'lab',
        host: '10.0.0.2',
        port: 2222,
        username: 'ci',
        interface_ip: '10.0.0.2',
        directory: null,
        host_keys: ['[10.0.0.2]:2222 ssh-ed25519 AAAA'],
      },
    ]);
    expect(inventory.groups).toEqual({ peers: ['peer-alias'], everyone: ['controller', 'peer'] });
    expect(inventory.ssh).toEqual({
      config_file: '/nodes/n1/work/ssh/config',
      known_hosts_file: '/nodes/n1/work/ssh/known_hosts',
    });
    const peerVars = {
      ansible_connection: 'ssh',
      ansible_host: '10.0.0.2',
      ansible_port: 2222,
      ansible_user: 'ci',
      ansible_ssh_private_key_file: '/keys/lab',
      nodepool: { label: 'lab', provider: 'tenant/lab', interface_ip: '10.0.0.2' },
      sluice_node_id: 'n2',
      sluice_node_dir: null,
    };
    expect(inventory.all).toEqual({
      hosts: {
        controller: {
          ansible_connection: 'local',
          ansible_host: 'localhost',
          ansible_port: null,
          ansible_user: null,
          nodepool: { label: 'small', provider: 'tenant/local-nodes', interface_ip: '127.0.0.1' },
          sluice_node_id: 'n1',
          sluice_node_dir: '/nodes/n1',
        },
        peer: peerVars,
        'peer-alias': peerVars,
      },
      children: { peers: { hosts: { 'peer-alias': null } }, everyone: { hosts: { controller: null, peer: null } } },
    });
    expect(sshConfigText(inventory)).toBe(
      [
        'Host peer peer-alias',
        '  HostName 10.0.0.2',
        '  Port 2222',
        '  User ci',
        '  IdentityFile "/keys/lab"',
        '  IdentitiesOnly yes',
        '  UserKnownHostsFile "/nodes/n1/work/ssh/known_hosts"',
        '  StrictHostKeyChecking yes',
        '  BatchMode yes',
        '  LogLevel ERROR',
        '',
      ].join('\n'),
    );
  });

  it('adds the job’s host-vars to the hosts of that name and group-vars to the groups', () => {
    const params = buildParams({
      job: {
        hostVars: { 'peer-alias': { role: 'db', ansible_host: 'ignored' }, absent: { x: 1 } },
        groupVars: { peers: { port: 5432 } },
      },
      params: { nodes: [LOCAL, SSH], nodeset: PAIR },
    });
    const { all } = buildInventory({ params, workspaceRoot: '/nodes/n1', sshKeyFor: keys });
    expect(all.hosts['peer-alias']).toMatchObject({ role: 'db', ansible_host: '10.0.0.2' });
    expect(all.hosts.peer).not.toHaveProperty('role');
    expect(all.hosts).not.toHaveProperty('absent');
    expect(all.children).toEqual({
      peers: { hosts: { 'peer-alias': null }, vars: { port: 5432 } },
      everyone: { hosts: { controller: null, peer: null } },
    });
  });

  it('makes every node the executor host itself without launcher nodes (built-in local gateway)', () => {
    const inventory = buildInventory({
      params: buildParams({ params: { nodeset: PAIR } }),
      workspaceRoot: '/work/b1',
      sshKeyFor: keys,
    });
    expect(
      inventory.nodes.map((node) => [node.name, node.connection_type, node.id, node.directory, node.primary]),
    ).toEqual([
      ['controller', 'local', null, '/work/b1', true],
      ['peer', 'local', null, '/work/b1', false],
    ]);
    expect(inventory.ssh).toBeNull();
    expect(buildInventory({ params: buildParams(), workspaceRoot: '/work/b1', sshKeyFor: keys })).toEqual({
      primary: null,
      nodes: [],
      groups: {},
      ssh: null,
      all: { hosts: {}, children: {} },
    });
  });

  it('writes the inventory and SSH files into work/ and points the step variables at them', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sluice-inventory-'));
    try {
      const env = writeNodeFiles({
        params: buildParams({ params: { nodes: [LOCAL, SSH], nodeset: PAIR } }),
        workspaceRoot: root,
        sshKeyFor: keys,
      });
      expect(env).toEqual({
        SLUICE_INVENTORY_FILE: path.join(root, 'work/inventory.json'),
        SLUICE_NODE_NAME: 'controller',
        SLUICE_NODE_DIR: '/nodes/n1',
        SLUICE_SSH_CONFIG: path.join(root, 'work/ssh/config'),
        SLUICE_SSH_KNOWN_HOSTS: path.join(root, 'work/ssh/known_hosts'),
      });
      expect(JSON.parse(readFileSync(env.SLUICE_INVENTORY_FILE, 'utf8'))).toMatchObject({
        primary: 'controller',
        groups: { peers: ['peer-alias'] },
      });
      expect(readFileSync(env.SLUICE_SSH_KNOWN_HOSTS, 'utf8')).toBe('[10.0.0.2]:2222 ssh-ed25519 AAAA\n');
      expect(readFileSync(env.SLUICE_SSH_CONFIG, 'utf8')).toContain('Host peer peer-alias\n');
      expect(statSync(env.SLUICE_SSH_CONFIG).mode & 0o777).toBe(0o600);

      const plain = writeNodeFiles({ params: buildParams(), workspaceRoot: root, sshKeyFor: keys });
      expect(plain).toMatchObject({
        SLUICE_NODE_NAME: '',
        SLUICE_NODE_DIR: '',
        SLUICE_SSH_CONFIG: '',
        SLUICE_SSH_KNOWN_HOSTS: '',
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
