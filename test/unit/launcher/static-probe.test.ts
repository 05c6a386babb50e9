/**
 * The static driver probes a host's SSH port and closes the probe's socket at once: a server
 * that speaks first and waits (as sshd does) must not keep the probe's socket, and its file
 * descriptor, open.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { StaticDriver } from '../../../src/launcher/drivers/static';
import type { NodeRecord } from '../../../src/model/launcher';
import type { RuntimeLabel, RuntimeProvider } from '../../../src/launcher/providers';

describe('static driver port probe', () => {
  let server: net.Server;
  const serverSockets: net.Socket[] = [];

  beforeAll(async () => {
    // Sends a banner and never closes its side, even after the client's end (allowHalfOpen).
    server = net.createServer({ allowHalfOpen: true }, (socket) => {
      serverSockets.push(socket);
      socket.write('SSH-2.0-Probe\r\n');
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    serverSockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers ready and leaves no socket of its own open', async () => {
    const { port } = server.address() as AddressInfo;
    const connect = jest.spyOn(net, 'connect');
    const label = { name: 'small', bootTimeout: 5, hostKeyChecking: false } as RuntimeLabel;
    const provider = {
      name: 'static-provider',
      hosts: [{ name: '127.0.0.1', labels: ['small'], port, username: null, hostKeyChecking: false }],
    } as unknown as RuntimeProvider;
    const outcome = await new StaticDriver().launch({ externalId: '127.0.0.1' } as NodeRecord, provider, label);
    expect(outcome).toMatchObject({ kind: 'ready', attributes: { host: '127.0.0.1', port } });
    expect(connect).toHaveBeenCalledTimes(1);
    const probe = connect.mock.results[0].value as net.Socket;
    expect(probe.destroyed).toBe(true);
    connect.mockRestore();
  });
});
