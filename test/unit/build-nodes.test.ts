/** Node infos of nodes-provisioned events as the executor sees them (build request `nodes`). */
import { toBuildNode } from '../../src/engine/build-request-executor';

describe('toBuildNode', () => {
  it('keeps what the executor needs of launcher nodes', () => {
    expect(
      toBuildNode({ id: 'n1', label: 'small', provider: 'p', connection: 'local', connectionType: 'local', host: 'localhost', interfaceIp: '127.0.0.1', port: null, username: null, path: '/nodes/n1', hostKeys: [] }),
    ).toEqual({ id: 'n1', label: 'small', connectionType: 'local', connection: 'local', host: 'localhost', port: null, username: null, path: '/nodes/n1', hostKeys: [] });
    expect(toBuildNode({ id: 'n2', label: 'lab', connection: 'lab', connectionType: 'ssh', host: '10.0.0.1', port: 2222, username: 'ci', path: null, hostKeys: ['k1', 3] })).toEqual({
      id: 'n2',
      label: 'lab',
      connectionType: 'ssh',
      connection: 'lab',
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
