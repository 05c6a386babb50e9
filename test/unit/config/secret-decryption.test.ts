/**
 * Secrets at layout load (docs/security.md#secrets): decrypted with the defining project's key,
 * a value that does not decrypt is a configuration error that quotes neither ciphertext nor
 * plaintext, the layout's redactor masks every decrypted value, and frozen jobs carry their
 * secrets still encrypted. Also the post-review rule for untrusted projects' secrets.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { encryptSecret } from '../../../src/secrets/encryption';
import { REDACTED } from '../../../src/secrets/redact';
import { freezeJobGraph } from '../../../src/config/freeze';
import { loadSecretKeys } from '../../../src/config/secret-check';
import { memoryLayout, type MemoryProject } from '../../helpers/memory-layout';
import { toBuildRequestParams } from '../../../src/executor/build-request-params';
import { engineJob } from '../../../src/engine/layout-adapter';
import type { BuildParams } from '../../../src/engine/ports/executor';
import { buildRequestParamsSchema } from '../../../src/model/build-request';

const appKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const configKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const APP = 'review.example.com/org/app';
const CONFIG = 'review.example.com/config';

/** Longer than one 2048-bit chunk (214 bytes), so it is split. */
const PASSWORD = `pw-${'0123456789abcdef'.repeat(20)}-end`;
const SSH_KEY = '-----BEGIN KEY-----\nline-one-of-the-key\nline-two-of-the-key\n-----END KEY-----';
const SITE_TOKEN = 'site-token-for-trusted-jobs';

function encrypted(value: string, key: KeyObject, indent: string): string {
  return `!encrypted/pkcs1-oaep\n${encryptSecret(value, key, { strip: false })
    .map((chunk) => `${indent}- ${chunk}\n`)
    .join('')}`;
}

const CONFIG_FILES = `
- pipeline: {name: check, manager: independent, trigger: {}}
- pipeline: {name: post, manager: supercedent, post-review: true, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
- secret:
    name: site
    data:
      token: ${encrypted(SITE_TOKEN, configKey.publicKey, '        ')}
- job:
    name: site-job
    run: site.sh
    secrets: [site]
`;

const APP_FILES = `
- secret:
    name: deploy
    data:
      user: ci-bot
      password: ${encrypted(PASSWORD, appKey.publicKey, '        ')}
      keys:
        - ${encrypted(SSH_KEY, appKey.publicKey, '          ')}
- secret:
    name: broken
    data:
      password: ${encrypted('encrypted-for-the-wrong-project', configKey.publicKey, '        ')}
- job:
    name: deploy-job
    run: deploy.sh
    secrets: [{name: creds, secret: deploy}]
- job:
    name: broken-job
    run: broken.sh
    secrets: [broken]
- project:
    check: {jobs: [deploy-job, site-job]}
    post: {jobs: [deploy-job]}
`;

const PROJECTS: MemoryProject[] = [
  { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': CONFIG_FILES } } },
  { name: 'org/app', branches: { master: { 'zuul.yaml': APP_FILES } } },
];

const KEYS = new Map([
  [APP, appKey.privateKey],
  [CONFIG, configKey.privateKey],
]);

describe('secrets at layout load', () => {
  const layout = memoryLayout(PROJECTS, '', KEYS);

  it('reports a value that does not decrypt as an error of the secret, and of each job using it', () => {
    expect(layout.errors.map((e) => [e.sourceContext?.projectName, e.shortError])).toEqual([
      [
        'org/app',
        "Unable to decrypt secret broken: chunk 1 of data.password could not be decrypted with the project key of project org/app. Encrypt values with this project's public key (the tenant's key/<project>.pub endpoint or `sluice encrypt`).",
      ],
      ['org/app', 'Unable to use secret broken: it could not be decrypted (see the error reported for the secret).'],
    ]);
    expect(layout.secrets.has('broken')).toBe(false);
    expect(layout.jobs.has('broken-job')).toBe(false);
    // The long form names the line but quotes nothing of the stanza.
    const secretError = layout.errors[0];
    expect(secretError.line).toBeGreaterThan(1);
    const ciphertext =
      APP_FILES.split('\n')
        .find((line) => line.includes('- ') && line.trim().length > 300)
        ?.trim()
        .slice(2) ?? '';
    expect(ciphertext.length).toBeGreaterThan(300);
    for (const error of layout.errors) {
      expect(error.error).not.toContain(ciphertext.slice(0, 40));
      expect(error.error).not.toContain('encrypted-for-the-wrong-project');
      expect(error.error).not.toContain('pkcs1');
    }
  });

  it('masks every decrypted value, multi-line values line by line, with the layout redactor', () => {
    const redactor = layout.secretRedactor;
    expect(redactor?.active).toBe(true);
    const text = `user ${PASSWORD} and ${SITE_TOKEN}; key:\n${SSH_KEY}\nonly line-two-of-the-key`;
    expect(redactor?.redact(text)).toBe(`user ${REDACTED} and ${REDACTED}; key:\n${REDACTED}\nonly ${REDACTED}`);
    // The layout object itself holds no plaintext.
    expect(JSON.stringify({ ...layout, secrets: [...layout.secrets.values()] })).not.toContain(PASSWORD.slice(0, 20));
  });

  it('freezes jobs with their secrets still encrypted, bound to the defining project', () => {
    const frozen = freezeJobGraph(layout, { pipeline: 'post', project: 'org/app', branch: 'master' });
    expect(frozen.status).toBe('ok');
    const job = frozen.status === 'ok' ? frozen.jobs.find((j) => j.name === 'deploy-job') : undefined;
    expect(job?.frozenSecrets.map((s) => [s.name, s.projectCanonicalName])).toEqual([['deploy', APP]]);
    expect(job?.run[0].secrets).toEqual([{ alias: 'creds', secretName: 'deploy', passToParent: false }]);
    const data = job?.frozenSecrets[0].data as { user: string; password: { encrypted: string; chunks: string[] } };
    expect(data.user).toBe('ci-bot');
    expect(data.password.encrypted).toBe('pkcs1-oaep');
    expect(data.password.chunks).toHaveLength(2);
    expect(JSON.stringify(job)).not.toContain(PASSWORD.slice(0, 20));
  });

  it('makes a job of an untrusted project using a secret post-review (a check pipeline refuses it); trusted jobs stay usable', () => {
    const check = freezeJobGraph(layout, { pipeline: 'check', project: 'org/app', branch: 'master' });
    expect(check.status).toBe('error');
    if (check.status === 'error') {
      expect(check.errors.map((e) => e.message)).toEqual([
        'Pre-review pipeline check does not allow post-review job deploy-job',
      ]);
      const site = check.jobs.find((j) => j.name === 'site-job');
      expect(site?.postReview).toBe(false);
      expect(site?.frozenSecrets.map((s) => [s.name, s.projectCanonicalName])).toEqual([['site', CONFIG]]);
    }
    const post = freezeJobGraph(layout, { pipeline: 'post', project: 'org/app', branch: 'master' });
    const deploy = post.status === 'ok' ? post.jobs.find((j) => j.name === 'deploy-job') : undefined;
    expect(deploy).toMatchObject({ postReview: true, allowedProjects: [APP] });
  });

  it('reports a missing key without quoting anything', () => {
    const withoutKey = memoryLayout(PROJECTS, '', new Map([[CONFIG, new Error('database down')]]));
    expect(withoutKey.errors.map((e) => e.shortError)).toEqual(
      expect.arrayContaining([
        'Unable to decrypt secret site: the secrets key of project config is not available (database down).',
        'Unable to decrypt secret deploy: the secrets key of project org/app is not available.',
      ]),
    );
  });

  it('does not check secrets without keys (validate-config)', () => {
    const unchecked = memoryLayout(PROJECTS);
    expect(unchecked.errors).toEqual([]);
    expect(unchecked.secretRedactor).toBeUndefined();
  });

  it('loads keys only for projects whose files hold encrypted values', async () => {
    const asked: string[] = [];
    const keys = await loadSecretKeys(
      [
        { canonicalName: APP, files: new Map([['master', [{ text: APP_FILES }]]]) },
        {
          canonicalName: 'review.example.com/org/plain',
          files: new Map([['master', [{ text: '- job: {name: x}\n' }]]]),
        },
        { canonicalName: CONFIG, files: new Map([['master', [{ text: CONFIG_FILES }]]]) },
      ],
      {
        secretsKey: async (project) => {
          asked.push(project);
          if (project === CONFIG) {
            throw new Error('no database');
          }
          return { privateKey: () => appKey.privateKey };
        },
      },
    );
    expect(asked).toEqual([APP, CONFIG]);
    expect(keys.get(APP)).toBe(appKey.privateKey);
    expect(keys.get(CONFIG)).toBeInstanceOf(Error);
  });
});

describe('secrets in build requests', () => {
  const layout = memoryLayout(PROJECTS, '', KEYS);

  function requestFor(pipeline: string, jobName: string): ReturnType<typeof toBuildRequestParams> {
    const frozen = freezeJobGraph(layout, { pipeline, project: 'org/app', branch: 'master' });
    const job = (frozen.status === 'ok' || frozen.status === 'error' ? frozen.jobs : []).find(
      (j) => j.name === jobName,
    );
    if (job === undefined) {
      throw new Error(`no job ${jobName}`);
    }
    const change = {
      kind: 'change' as const,
      project: APP,
      ref: 'refs/changes/01/1/1',
      branch: 'master',
      number: 1,
      patchset: '1',
      oldrev: null,
      newrev: 'a'.repeat(40),
      url: null,
      owner: null,
      dependsOn: [],
      merged: false,
    };
    const params: BuildParams = {
      tenant: 't',
      pipeline,
      buildUuid: 'b0000000000000000000000000000001',
      buildsetUuid: 'bs1',
      itemUuid: 'i1',
      job: engineJob(job),
      attempt: 1,
      precedence: 200,
      changes: [change],
      mergeItems: [
        {
          project: APP,
          connection: 'gerrit',
          mergeMode: 'merge',
          ref: change.ref,
          branch: 'master',
          number: 1,
          patchset: '1',
          oldrev: null,
          newrev: null,
          buildsetUuid: 'bs1',
        },
      ],
      parentData: {},
      artifacts: [],
      nodes: [],
      timeout: null,
    };
    return toBuildRequestParams(params, (_tenant, name) => name.replace('review.example.com/', ''));
  }

  it('carries each secret once, still encrypted, and binds it to the steps of the variant that uses it', () => {
    const request = requestFor('post', 'deploy-job');
    expect(buildRequestParamsSchema.safeParse(request).success).toBe(true);
    expect(request.job.secrets?.map((s) => [s.name, s.project, Object.keys(s.data)])).toEqual([
      ['deploy', APP, ['user', 'password', 'keys']],
    ]);
    expect(request.job.run).toEqual([
      {
        connection: 'gerrit',
        project: 'org/app',
        path: 'deploy.sh',
        secrets: [{ alias: 'creds', secret: 0 }],
        // Where it was defined and the defining project's own roles (docs/executor.md#roles).
        trusted: false,
        branch: 'master',
        nestingLevel: 0,
        roles: [{ type: 'zuul', connection: 'gerrit', project: 'org/app', target: 'app', implicit: true }],
      },
    ]);
    // The base job's own script sees nothing of it.
    expect(request.job.preRun).toEqual([]);
    expect(JSON.stringify(request)).not.toContain(PASSWORD.slice(0, 20));
    expect(JSON.stringify(request)).not.toContain('line-one-of-the-key');
  });

  it("decrypts a trusted job's secret with the key of the config project that defines it", () => {
    const request = requestFor('check', 'site-job');
    expect(request.job.secrets?.map((s) => [s.name, s.project])).toEqual([['site', CONFIG]]);
    expect(request.job.run[0].secrets).toEqual([{ alias: 'site', secret: 0 }]);
  });
});
