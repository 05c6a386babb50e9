/** Node infos of nodes-provisioned events as the executor sees them (build request `nodes` and `nodeset`). */
import { toBuildNode, toBuildRequestParams } from '../../src/executor/build-request-params';
import type { BuildParams } from '../../src/engine/ports/executor';
import { buildRequestParamsSchema } from '../../src/model/build-request';
import { frozenExecution } from '../engine/scripted-layout';

describe('toBuildNode', () => {
  it('keeps what the executor needs of launcher nodes', () => {
    expect(
      toBuildNode({
        id: 'n1',
        label: 'small',
        provider: 'p',
        connection: 'local',
        connectionType: 'local',
        host: 'localhost',
        interfaceIp: '127.0.0.1',
        port: null,
        username: null,
        path: '/nodes/n1',
        hostKeys: [],
      }),
    ).toEqual({
      id: 'n1',
      label: 'small',
      connectionType: 'local',
      connection: 'local',
      provider: 'p',
      interfaceIp: '127.0.0.1',
      host: 'localhost',
      port: null,
      username: null,
      path: '/nodes/n1',
      hostKeys: [],
    });
    expect(
      toBuildNode({
        id: 'n2',
        label: 'lab',
        connection: 'lab',
        connectionType: 'ssh',
        host: '10.0.0.1',
        port: 2222,
        username: 'ci',
        path: null,
        hostKeys: ['k1', 3],
      }),
    ).toEqual({
      id: 'n2',
      label: 'lab',
      connectionType: 'ssh',
      connection: 'lab',
      provider: null,
      interfaceIp: null,
      host: '10.0.0.1',
      port: 2222,
      username: 'ci',
      path: null,
      hostKeys: ['k1'],
    });
  });

  it('leaves out the built-in local gateway pseudo-nodes and unknown kinds', () => {
    expect(toBuildNode({ id: 'r-0', label: 'small', provider: 'local', hostname: 'localhost' })).toBeNull();
    expect(toBuildNode({ id: 'w1', label: 'win', connectionType: 'winrm' })).toBeNull();
  });
});

describe('toBuildRequestParams nodes', () => {
  const change = {
    kind: 'change' as const,
    project: 'review.example.com/org/app',
    ref: 'refs/changes/01/1/1',
    branch: 'main',
    number: 1,
    patchset: '1',
    oldrev: null,
    newrev: null,
    url: null,
    owner: null,
    dependsOn: [],
    merged: false,
  };
  const params = (nodes: BuildParams['nodes']): BuildParams => ({
    tenant: 't',
    pipeline: 'check',
    buildUuid: 'b0000000001',
    buildsetUuid: 'bs1',
    itemUuid: 'i1',
    attempt: 1,
    precedence: 200,
    changes: [change],
    mergeItems: [
      {
        project: 'review.example.com/org/app',
        connection: 'gerrit',
        mergeMode: 'merge',
        ref: change.ref,
        branch: 'main',
        number: 1,
        patchset: '1',
        oldrev: null,
        newrev: null,
        buildsetUuid: 'bs1',
      },
    ],
    parentData: {},
    artifacts: [],
    nodes,
    timeout: null,
    job: {
      name: 'pair',
      dependencies: [],
      voting: true,
      attempts: 3,
      timeout: null,
      semaphores: [],
      nodeset: { name: '', labels: ['small', 'small'] },
      provides: [],
      requires: [],
      holdFollowingChanges: false,
      vars: {},
      params: frozenExecution({
        nodesetAlternatives: [
          {
            name: 'first',
            nodes: [
              { name: 'a', aliases: [], label: 'small' },
              { name: 'b', aliases: [], label: 'small' },
            ],
            groups: [],
          },
          {
            name: 'second',
            nodes: [
              { name: 'x', aliases: ['y'], label: 'small' },
              { name: 'z', aliases: [], label: 'small' },
            ],
            groups: [{ name: 'g', nodes: ['z'] }],
          },
        ],
        hostVars: { x: { role: 'main' }, bad: 'not a mapping' },
        groupVars: { g: { port: 1 } },
      }),
    },
  });
  const local = (id: string) => ({
    id,
    label: 'small',
    provider: 'p',
    connection: 'local',
    connectionType: 'local',
    host: 'localhost',
    interfaceIp: '127.0.0.1',
    port: null,
    username: null,
    path: `/nodes/${id}`,
    hostKeys: [],
    nodesetIndex: 1,
  });

  it('carries the nodes with the names and groups of the alternative the launcher fulfilled, and host/group vars', () => {
    const request = toBuildRequestParams(params([local('n1'), local('n2')]), (_tenant, name) =>
      name.replace(/^review\.example\.com\//, ''),
    );
    expect(request.nodes?.map((node) => node.id)).toEqual(['n1', 'n2']);
    expect(request.nodeset).toEqual({
      name: 'second',
      nodes: [
        { name: 'x', aliases: ['y'], label: 'small' },
        { name: 'z', aliases: [], label: 'small' },
      ],
      groups: [{ name: 'g', nodes: ['z'] }],
    });
    expect(request.job.hostVars).toEqual({ x: { role: 'main' } });
    expect(request.job.groupVars).toEqual({ g: { port: 1 } });
    // What the executor reads back from the store validates.
    expect(buildRequestParamsSchema.safeParse(JSON.parse(JSON.stringify(request))).success).toBe(true);
  });

  it('names the built-in gateway’s pseudo-nodes too (they run in the executor workspace)', () => {
    const request = toBuildRequestParams(
      params([
        { id: 'r-0', label: 'small', provider: 'local' },
        { id: 'r-1', label: 'small', provider: 'local' },
      ]),
      (_tenant, name) => name,
    );
    expect(request.nodes).toBeUndefined();
    expect(request.nodeset?.name).toBe('first');
    expect(toBuildRequestParams(params([]), (_tenant, name) => name).nodeset).toBeUndefined();
  });
});
