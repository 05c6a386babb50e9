/**
 * `/health/ready` says what the executor can run playbooks with (docs/operations.md#health):
 * a process whose executor has no `ansible-playbook` stays ready (scripts still run) but names
 * the missing tool and the builds that needed it; one with everything has no warnings.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { AnsibleToolchain } from '../../../src/executor/ansible/toolchain';
import { healthRoutes, type ReadyAnswer } from '../../../src/server/health';
import type { Database } from '../../../src/store/database';

async function ready(toolchain: AnsibleToolchain): Promise<{ status: number; body: ReadyAnswer }> {
  const database = { knex: { raw: () => Promise.resolve(1) } } as unknown as Database;
  const koa = new Koa();
  koa.use(
    healthRoutes({
      database,
      readiness: { migrated: true, shuttingDown: false },
      links: () => [],
      executorTools: () => toolchain.current(),
    }),
  );
  const server = http.createServer(koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health/ready`);
    return { status: response.status, body: (await response.json()) as ReadyAnswer };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('/health/ready and the executor tools', () => {
  it('names a missing ansible-playbook and the builds that needed it, and stays ready', async () => {
    const toolchain = new AnsibleToolchain({ pathEnv: '/nonexistent' });
    await toolchain.probe();
    toolchain.refused('hello-unit', 'b1', 'The job runs playbooks but this executor cannot run Ansible');
    const { status, body } = await ready(toolchain);
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.executor).toMatchObject({
      ansible: { available: false, error: 'ansible-playbook is not installed (Debian package ansible-core)' },
      sandbox: { available: false, mode: 'bwrap', error: 'bwrap is not installed (Debian package bubblewrap)' },
      refusedBuilds: 1,
      lastRefused: { job: 'hello-unit', build: 'b1' },
    });
    expect(body.warnings).toEqual([
      'ansible-playbook is not available (ansible-playbook is not installed (Debian package ansible-core)): builds whose jobs run playbooks end ERROR; 1 build(s) needing it ended ERROR, the last of job hello-unit',
      'the bubblewrap sandbox is not available (bwrap is not installed (Debian package bubblewrap)): builds running untrusted playbooks end ERROR',
    ]);
  });

  it('has no warnings when both are there, or the sandbox is switched off on purpose', async () => {
    const toolchain = new AnsibleToolchain({ pathEnv: process.env.PATH });
    await toolchain.probe();
    const { body } = await ready(toolchain);
    expect(body.executor?.ansible.available).toBe(true);
    expect(body.warnings).toBeUndefined();
    const off = new AnsibleToolchain({ pathEnv: process.env.PATH, sandbox: 'none' });
    await off.probe();
    expect((await ready(off)).body).toMatchObject({ executor: { sandbox: { available: false, mode: 'none' } } });
    expect((await ready(off)).body.warnings).toBeUndefined();
  });
});
