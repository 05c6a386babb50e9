/**
 * The executor's tool probe (src/executor/ansible/toolchain.ts) runs `ansible-playbook --version`
 * and the bubblewrap checks side by side: the executor starts only after the probe, and the
 * Python start-up of `ansible-playbook` alone takes a second or more on a loaded host. Stand-ins
 * for both tools meet at a named pipe, which only answers while both run at once: one after the
 * other, the first gives up after a few seconds and the probe reports it unavailable.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AnsibleToolchain } from '../../../src/executor/ansible/toolchain';

describe('executor tool probe', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-toolchain-'));
    const pipe = path.join(dir, 'meeting');
    execFileSync('mkfifo', [pipe]);
    // Opening a named pipe blocks until the other end is opened too: each stand-in waits for the other.
    writeFileSync(
      path.join(dir, 'ansible-playbook'),
      `#!/bin/sh\ntimeout 5 cat '${pipe}' >/dev/null || exit 1\necho 'ansible-playbook [core 2.99.0]'\n`,
      { mode: 0o755 },
    );
    writeFileSync(
      path.join(dir, 'bwrap'),
      `#!/bin/sh\nif [ "$1" = --version ]; then timeout 5 sh -c "echo met > '${pipe}'" || exit 1; echo 'bubblewrap 0.99'; fi\n`,
      { mode: 0o755 },
    );
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('probes ansible-playbook and the sandbox side by side', async () => {
    const toolchain = new AnsibleToolchain({ pathEnv: `${dir}:/usr/bin:/bin` });
    const state = await toolchain.probe();
    expect(state.ansible).toEqual({ available: true, version: 'ansible-playbook [core 2.99.0]' });
    expect(state.sandbox).toEqual({ available: true, version: 'bubblewrap 0.99', mode: 'bwrap' });
  });
});
