/**
 * Secrets on a real executor worker: the build request carries them still encrypted, the worker
 * decrypts them with the project's key from a real KeyManager, each step finds only its own
 * secrets in `$SLUICE_SECRETS_FILE` (mode 0600, gone after the step), and every value is masked
 * in the log, the files of the log directory, the error detail and the results.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REDACTED } from '../../src/secrets/redact';
import { encryptSecret } from '../../src/secrets/encryption';
import { KeyEncryptor } from '../../src/auth/keys/key-encryption';
import { KeyManager } from '../../src/auth/keys/key-manager';
import type { BuildSecret, BuildStep } from '../../src/model/build-request';
import { KeyRepository } from '../../src/store/repositories/keys';
import { step } from '../helpers/build-params';
import { createExecutorHarness, type ExecutorHarness } from '../helpers/executor';

const PROJECT = 'git.example.com/org/app';
const PASSWORD = 'correct-horse-battery-staple';
const MULTILINE = 'first-line-of-a-cert\nsecond-line-of-a-cert';

/** Copies its secrets file (and the file's mode) out of the workspace, then leaks the password everywhere it can. */
const SCRIPTS = {
  'use-secret.sh': `set -e
out="$SLUICE_VAR_out/$SLUICE_VAR_tag"
mkdir -p "$out"
cp "$SLUICE_SECRETS_FILE" "$out/run-secrets.json"
stat -c %a "$SLUICE_SECRETS_FILE" > "$out/run-mode"
password=$(node -e 'console.log(require(process.env.SLUICE_SECRETS_FILE).creds.password)')
echo "the password is $password"
node -e 'console.log(require(process.env.SLUICE_SECRETS_FILE).creds.cert)'
echo "copy: $password" > "$SLUICE_LOG_DIR/copy.txt"
printf 'binary\\0%s' "$password" > "$SLUICE_LOG_DIR/blob.bin"
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"data": {"leak": "$password", "nested": {"list": ["x $password y"]}}, "warnings": ["saw $password"],
 "artifacts": [{"name": "a-$password", "url": "a.txt", "metadata": {"k": "$password"}}]}
JSON
`,
  'bad-results.sh': `password=$(node -e 'console.log(require(process.env.SLUICE_SECRETS_FILE).creds.password)')
printf '{"data": %s}' "$password" > "$SLUICE_RESULTS_FILE"
`,
  'pause-with-secret.sh': `password=$(node -e 'console.log(require(process.env.SLUICE_SECRETS_FILE).creds.password)')
cat > "$SLUICE_RESULTS_FILE" <<JSON
{"pause": true, "data": {"handed_over": "$password"}}
JSON
`,
  'post-with-secret.sh': `cp "$SLUICE_SECRETS_FILE" "$SLUICE_VAR_out/$SLUICE_VAR_tag/post-secrets.json"
echo "tearing down with $(node -e 'console.log(require(process.env.SLUICE_SECRETS_FILE).creds.password)')"
`,
  'no-secret.sh': `out="$SLUICE_VAR_out/$SLUICE_VAR_tag"
cp "$SLUICE_SECRETS_FILE" "$out/post-secrets.json"
`,
};

describe('build secrets on the executor', () => {
  let harness: ExecutorHarness;
  let keys: KeyManager;
  let secret: BuildSecret;
  const out = () => path.join(harness.root, 'out');

  beforeAll(async () => {
    harness = await createExecutorHarness(SCRIPTS, { secretKeys: async () => keys });
    keys = new KeyManager({
      repository: new KeyRepository(harness.database.knex),
      encryptor: await KeyEncryptor.fromSecret('test-secret'),
      sizes: { secrets: 2048 },
    });
    const publicKey = (await keys.secretsKey(PROJECT)).publicKey();
    secret = {
      name: 'deploy',
      project: PROJECT,
      data: {
        user: 'ci-bot',
        password: { encrypted: 'pkcs1-oaep', chunks: encryptSecret(PASSWORD, publicKey) },
        cert: { encrypted: 'pkcs1-oaep', chunks: encryptSecret(MULTILINE, publicKey) },
      },
    };
    mkdirSync(out(), { recursive: true });
    harness.worker.start();
  });

  afterAll(() => harness.close());

  const withSecret = (script: string): BuildStep => ({ ...step(script), secrets: [{ alias: 'creds', secret: 0 }] });

  it('gives a step only its own secrets in a 0600 file that exists while it runs', async () => {
    const uuid = 'se000000000000000000000000000001';
    await harness.enqueue(uuid, {
      run: [withSecret('use-secret.sh')],
      postRun: [step('no-secret.sh')],
      secrets: [secret],
      vars: { out: out(), tag: 'one' },
    });
    const done = await harness.completion(uuid);
    expect(done.result).toBe('SUCCESS');
    const seen = path.join(out(), 'one');
    expect(JSON.parse(readFileSync(path.join(seen, 'run-secrets.json'), 'utf8'))).toEqual({
      creds: { user: 'ci-bot', password: PASSWORD, cert: MULTILINE },
    });
    expect(readFileSync(path.join(seen, 'run-mode'), 'utf8').trim()).toBe('600');
    // The post-run step has no secrets: it finds an empty document, nothing of the run step's.
    expect(JSON.parse(readFileSync(path.join(seen, 'post-secrets.json'), 'utf8'))).toEqual({});
  });

  it('masks the values in the log, the log directory, the results and the stored rows', async () => {
    const uuid = 'se000000000000000000000000000002';
    await harness.enqueue(uuid, {
      run: [withSecret('use-secret.sh')],
      secrets: [secret],
      vars: { out: out(), tag: 'two' },
    });
    const done = await harness.completion(uuid);
    expect(done.result).toBe('SUCCESS');
    expect(done.data).toEqual({ leak: REDACTED, nested: { list: [`x ${REDACTED} y`] } });
    expect(done.warnings).toEqual([`saw ${REDACTED}`]);
    expect(done.artifacts).toEqual([
      { name: `a-${REDACTED}`, url: expect.stringMatching(/a\.txt$/), metadata: { k: REDACTED } },
      {
        name: 'Zuul Manifest',
        url: expect.stringMatching(/zuul-manifest\.json$/),
        metadata: { type: 'zuul_manifest' },
      },
    ]);
    const logDir = path.join(harness.logsDir, 'example', 'se', uuid);
    const log = readFileSync(path.join(logDir, 'job-output.txt'), 'utf8');
    expect(log).toContain(`| the password is ${REDACTED}\n`);
    // Both lines of the multi-line value, each masked on its own line.
    expect(log).toMatch(/ \| \*{6}\n[^\n]* \| \*{6}\n/);
    expect(log).not.toContain('line-of-a-cert');
    expect(log).not.toContain(PASSWORD);
    expect(readFileSync(path.join(logDir, 'copy.txt'), 'utf8')).toBe(`copy: ${REDACTED}\n`);
    // The structured output holds the step's output masked too (docs/logs.md#job-outputjson).
    const jobOutput = readFileSync(path.join(logDir, 'job-output.json'), 'utf8');
    expect(jobOutput).toContain(`the password is ${REDACTED}`);
    expect(jobOutput).not.toContain(PASSWORD);
    expect(jobOutput).not.toContain('line-of-a-cert');
    // Binary files are not rewritten (documented); text files never keep a temporary copy.
    expect(readdirSync(logDir).sort()).toEqual([
      'blob.bin',
      'copy.txt',
      'job-output.json',
      'job-output.txt',
      'zuul-info',
      'zuul-manifest.json',
    ]);
    const rows = await harness.database.knex.raw(
      `select params::text as params from build_requests where build_uuid = ?`,
      [uuid],
    );
    const params = (rows.rows as { params: string }[])[0].params;
    expect(params).toContain('pkcs1-oaep');
    expect(params).not.toContain(PASSWORD);
    const events = await harness.database.knex.raw(`select payload::text as payload from engine_events`);
    for (const { payload } of events.rows as { payload: string }[]) {
      expect(payload).not.toContain(PASSWORD);
    }
    expect(existsSync(path.join(harness.root, 'builds', uuid))).toBe(false);
  });

  it('never quotes a cut-off value from an invalid results file in the error detail', async () => {
    const uuid = 'se000000000000000000000000000005';
    await harness.enqueue(uuid, { run: [withSecret('bad-results.sh')], secrets: [secret] });
    const done = await harness.completion(uuid);
    expect(done.result).toBe('SUCCESS');
    expect(done.errorDetail).toBe("Invalid results file: Unexpected token 'c' (not valid JSON)");
    expect(JSON.stringify(done)).not.toContain(PASSWORD.slice(0, 6));
  });

  it('gives a paused build its secrets again when it resumes, and hands masked data to dependents', async () => {
    const uuid = 'se000000000000000000000000000006';
    mkdirSync(path.join(out(), 'six'), { recursive: true });
    await harness.enqueue(uuid, {
      run: [withSecret('pause-with-secret.sh')],
      postRun: [withSecret('post-with-secret.sh')],
      secrets: [secret],
      vars: { out: out(), tag: 'six' },
    });
    const paused = await harness.pause(uuid);
    expect(paused.data).toEqual({ handed_over: REDACTED });
    expect(await harness.repository.requestResume(uuid, new Date())).toBe(true);
    harness.worker.wake();
    const done = await harness.completion(uuid);
    expect(done.result).toBe('SUCCESS');
    expect(JSON.parse(readFileSync(path.join(out(), 'six', 'post-secrets.json'), 'utf8'))).toEqual({
      creds: { user: 'ci-bot', password: PASSWORD, cert: MULTILINE },
    });
    const log = readFileSync(path.join(harness.logsDir, 'example', 'se', uuid, 'job-output.txt'), 'utf8');
    expect(log).toContain(`| tearing down with ${REDACTED}\n`);
    expect(log).not.toContain(PASSWORD);
  });

  it('fails the build with ERROR, naming the secret but not its content, when a value does not decrypt', async () => {
    const uuid = 'se000000000000000000000000000003';
    const other = await keys.secretsKey('git.example.com/org/other');
    const wrong: BuildSecret = {
      ...secret,
      data: { password: { encrypted: 'pkcs1-oaep', chunks: encryptSecret(PASSWORD, other.publicKey()) } },
    };
    await harness.enqueue(uuid, {
      run: [withSecret('use-secret.sh')],
      secrets: [wrong],
      vars: { out: out(), tag: 'three' },
    });
    const done = await harness.completion(uuid);
    expect(done).toMatchObject({
      result: 'ERROR',
      errorDetail: `Secret deploy of project ${PROJECT} could not be decrypted: chunk 1 of data.password could not be decrypted with the project key`,
    });
    expect(existsSync(path.join(out(), 'three'))).toBe(false);
  });

  it('refuses a request whose step refers to a secret the job does not carry', async () => {
    const uuid = 'se000000000000000000000000000004';
    await harness.enqueue(uuid, {
      run: [{ ...step('use-secret.sh'), secrets: [{ alias: 'creds', secret: 3 }] }],
      secrets: [secret],
    });
    const done = await harness.completion(uuid);
    expect(done.result).toBe('ERROR');
    expect(done.errorDetail).toBe('Invalid build request: job: a step refers to a secret the job does not carry');
  });
});
