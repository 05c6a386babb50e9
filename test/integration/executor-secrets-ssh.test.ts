/**
 * Secrets on an SSH node (a real sshd on 127.0.0.1): the step's secrets file is created on the
 * node from the ssh process's standard input, mode 0600, holds only that step's secrets, and its
 * values are masked in the log.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KeyEncryptor } from '../../src/auth/keys/key-encryption';
import { KeyManager } from '../../src/auth/keys/key-manager';
import { REDACTED } from '../../src/secrets/redact';
import { encryptSecret } from '../../src/secrets/encryption';
import type { BuildNode } from '../../src/model/build-request';
import { KeyRepository } from '../../src/store/repositories/keys';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';
import { describeIf, SSHD } from '../helpers/preconditions';
import { startSshd, type TestSshd } from '../helpers/sshd';

/** Copies its secrets file (and its mode) to the directory named by the job's `out` variable. */
const REMOTE_SECRET_STEP = `#!/bin/bash
set -eu
cp "$SLUICE_SECRETS_FILE" "$SLUICE_VAR_out/$SLUICE_STEP-secrets.json"
stat -c %a "$SLUICE_SECRETS_FILE" > "$SLUICE_VAR_out/$SLUICE_STEP-mode"
case "$SLUICE_SECRETS_FILE" in "$HOME"/sluice-builds/*) echo remote > "$SLUICE_VAR_out/$SLUICE_STEP-where" ;; esac
cat "$SLUICE_SECRETS_FILE"
`;

const describeWithSshd = describeIf(SSHD);

describeWithSshd('build secrets on an SSH node', () => {
  let sshd: TestSshd;
  let harness: ExecutorHarness;
  let keys: KeyManager;

  beforeAll(async () => {
    sshd = await startSshd();
    harness = await createExecutorHarness(
      { 'remote-secret.sh': { content: REMOTE_SECRET_STEP, executable: true } },
      { sshKeyFiles: { static: sshd.clientKey }, secretKeys: async () => keys },
    );
    keys = new KeyManager({
      repository: new KeyRepository(harness.database.knex),
      encryptor: await KeyEncryptor.fromSecret('test-secret'),
      sizes: { secrets: 1024 },
    });
    harness.worker.start();
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await sshd?.stop();
  });

  it('creates the secrets file of a step on the node only while the step runs, from standard input', async () => {
    const node: BuildNode = {
      id: 'n-secret',
      label: 'static-host',
      connectionType: 'ssh',
      connection: 'static',
      host: '127.0.0.1',
      port: sshd.port,
      username: sshd.user,
      path: null,
      hostKeys: [],
    };
    const out = mkdtempSync(path.join(os.tmpdir(), 'sluice-remote-secrets-'));
    try {
      const project = 'git.example.com/org/app';
      const chunks = encryptSecret('remote-password-value', (await keys.secretsKey(project)).publicKey());
      await harness.enqueue(
        'remote00secret001',
        {
          name: 'remote',
          run: [{ ...step('remote-secret.sh'), secrets: [{ alias: 'creds', secret: 0 }] }],
          postRun: [step('remote-secret.sh')],
          secrets: [{ name: 'deploy', project, data: { password: { encrypted: 'pkcs1-oaep', chunks } } }],
          vars: { out },
        },
        { nodes: [node] },
      );
      const completed = await harness.completion('remote00secret001');
      expect(completed.errorDetail).toBeNull();
      expect(completed.result).toBe('SUCCESS');
      expect(JSON.parse(readFileSync(path.join(out, 'run-secrets.json'), 'utf8'))).toEqual({
        creds: { password: 'remote-password-value' },
      });
      expect(readFileSync(path.join(out, 'run-mode'), 'utf8').trim()).toBe('600');
      expect(readFileSync(path.join(out, 'run-where'), 'utf8').trim()).toBe('remote');
      expect(JSON.parse(readFileSync(path.join(out, 'post-run-secrets.json'), 'utf8'))).toEqual({});
      const log = readFileSync(
        path.join(harness.logsDir, 'example', 're', 'remote00secret001', 'job-output.txt'),
        'utf8',
      );
      expect(log).toContain(`"password": "${REDACTED}"`);
      expect(log).not.toContain('remote-password-value');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
