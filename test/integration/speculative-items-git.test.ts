/**
 * Speculative layouts item by item, with real git, the real executor and the server in one
 * process (docs/gating.md#speculative-layouts): `match-on-config-updates` compares a job with the
 * layout of the item ahead (a change behind a configuration change does not run the job the
 * change ahead already changed); the values of a secret only a proposed change has are masked by
 * the API from the moment its layout is built; and a change to a project-branch whose
 * configuration already has an error is reported with that error, while a change that leaves the
 * configuration alone is not blamed for it.
 */
import { randomBytes, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encryptSecret } from '../../src/secrets/encryption';
import { REDACTED } from '../../src/secrets/redact';
import { git } from '../../src/sources/git-cli';
import { gitPoller } from '../helpers/git-pollers';
import {
  QUICKSTART_PROJECT,
  QUICKSTART_TENANT,
  startQuickstartApp,
  type QuickstartApp,
} from '../helpers/quickstart-app';
import { adminGraphql, enqueueChange, lastBuilds, reportOf } from '../helpers/quickstart-items';

jest.setTimeout(240_000);

const QUICKSTART_YAML = readFileSync(
  path.resolve(__dirname, '../../examples/quickstart/repos/example/hello/.zuul.yaml'),
  'utf8',
);

/** The quickstart's configuration with `hello-docs`, which matches only changes to docs/, in gate. */
const ZUUL_YAML = QUICKSTART_YAML.replace(
  '- project:',
  `- job:
    name: hello-docs
    files: ['^docs/']
    run: scripts/docs.sh

- project:`,
).replace('    gate:\n      jobs:\n', '    gate:\n      jobs:\n        - hello-docs\n');

/** Unique per run: seeing it in an answer can only mean it was not masked. */
const SECRET = `proposed-${randomBytes(12).toString('hex')}`;

describe('speculative layouts item by item, with real git', () => {
  let qs: QuickstartApp;

  beforeAll(async () => {
    qs = await startQuickstartApp('sluice-speculative-items-', {
      projectFiles: { '.zuul.yaml': ZUUL_YAML, 'scripts/docs.sh': '#!/bin/sh\necho "docs built"\n' },
      configure: (config) => {
        config.executor.slots = 4;
      },
    });
  });

  afterAll(async () => {
    await qs?.stop();
  });

  /** The configuration errors the tenant's live layout has. */
  async function liveErrors(): Promise<string[]> {
    const body = await adminGraphql<{ data: { tenant: { configErrors: { nodes: Array<{ error: string }> } } } }>(
      qs,
      'query ($t: String!) { tenant(name: $t) { ... on Tenant { configErrors(first: 50) { nodes { error } } } } }',
      { t: QUICKSTART_TENANT },
    );
    return body.data.tenant.configErrors.nodes.map((node) => node.error);
  }

  it('does not run a job for a change behind the change that updated it (match-on-config-updates)', async () => {
    const changed = ZUUL_YAML.replace('    run: scripts/docs.sh', '    run: scripts/docs.sh\n    vars: {edition: 2}');
    await qs.pushChange(1, { '.zuul.yaml': changed }, 'Build the docs in their second edition');
    await qs.pushChange(2, { 'notes-2.md': 'Notes\n' }, 'Notes');
    const from = qs.deltaCount();
    await enqueueChange(qs, 'gate', 1);
    await enqueueChange(qs, 'gate', 2);
    expect((await reportOf(qs, 'gate', 1, from)).result).toBe('SUCCESS');
    expect((await reportOf(qs, 'gate', 2, from)).result).toBe('SUCCESS');
    // Neither change touches docs/: change 1 runs hello-docs because it changes the job (compared
    // with the live layout at the head); change 2 proposes what change 1 did, so nothing changed for it.
    expect(await lastBuilds(qs, 'gate', { change: 1 })).toEqual({
      'hello-unit': 'SUCCESS',
      'hello-lint': 'SUCCESS',
      'hello-docs': 'SUCCESS',
    });
    expect(await lastBuilds(qs, 'gate', { change: 2 })).toEqual({ 'hello-unit': 'SUCCESS', 'hello-lint': 'SUCCESS' });
  });

  /** The answer to a GraphQL query naming `value` as a tenant: the not-found error echoes it unless masked. */
  async function echo(value: string): Promise<{ key?: string; message?: string }> {
    const body = await adminGraphql<{ data: { tenant: { key?: string; message?: string } } }>(
      qs,
      'query ($t: String!) { tenant(name: $t) { ... on NotFoundError { key message } } }',
      { t: value },
    );
    return body.data.tenant;
  }

  /** A `secret` stanza holding `value` encrypted with the project's public key, as a user makes it. */
  async function secretStanza(name: string, value: string): Promise<string> {
    const pem = await (await fetch(`${qs.url()}/api/tenant/${QUICKSTART_TENANT}/key/${QUICKSTART_PROJECT}.pub`)).text();
    return `- secret:
    name: ${name}
    data:
      token: !encrypted/pkcs1-oaep
${encryptSecret(value, createPublicKey(pem))
  .map((chunk) => `        - ${chunk}`)
  .join('\n')}

`;
  }

  // Before any test puts a secret on master: the project's files hold no encrypted value yet.
  it("decrypts a proposed change's secret when the project has none yet", async () => {
    const first = `first-${randomBytes(12).toString('hex')}`;
    // The project's key is made when the user asks for it, after the layout was loaded.
    const current = (await git(qs.bareRepo, ['show', 'master:.zuul.yaml'])).stdout;
    expect(current).not.toContain('!encrypted/');
    const stanza = await secretStanza('hello_first', first);
    await qs.pushChange(6, { '.zuul.yaml': current.replace('- project:', `${stanza}- project:`) }, 'A first secret');
    expect((await echo(first)).key).toBe(first);
    const from = qs.deltaCount();
    await enqueueChange(qs, 'check', 6);
    const checked = await reportOf(qs, 'check', 6, from);
    expect([checked.result, checked.message]).toEqual(['SUCCESS', expect.not.stringContaining('decrypt')]);
    // Its layout decrypted the value: the API masks it.
    expect((await echo(first)).key).toBe(REDACTED);
  });

  /** Commit `.zuul.yaml` as `change` makes it straight to master and poll (the tenant reloads before the pass). */
  async function pushToMaster(change: (text: string) => string): Promise<string> {
    await gitPoller(qs.app.roles, 'local')?.pollNow();
    const work = mkdtempSync(path.join(qs.root, 'direct-'));
    await git(qs.root, ['clone', '--quiet', qs.bareRepo, work]);
    const text = change(readFileSync(path.join(work, '.zuul.yaml'), 'utf8'));
    writeFileSync(path.join(work, '.zuul.yaml'), text);
    await git(work, ['-c', 'user.name=U', '-c', 'user.email=u@example.com', 'commit', '--quiet', '-am', 'Direct']);
    await git(work, ['push', '--quiet', 'origin', 'HEAD:master']);
    await gitPoller(qs.app.roles, 'local')?.pollNow();
    return text;
  }

  it('masks the values of a secret only a proposed change has, once its layout is built', async () => {
    const secret = (value: string) => secretStanza('hello_token', value);
    // The live layout has the secret with another value, and a post job using it.
    const before = `live-${randomBytes(12).toString('hex')}`;
    const liveSecret = await secret(before);
    await pushToMaster((text) =>
      text
        .replace(
          '- project:',
          `${liveSecret}- job:\n    name: hello-deploy\n    secrets: [hello_token]\n    run: scripts/publish.sh\n\n- project:`,
        )
        .replace('    post:\n      jobs:\n', '    post:\n      jobs:\n        - hello-deploy\n'),
    );
    for (let tries = 0; tries < 600 && (await echo(before)).key !== REDACTED; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await echo(before)).key).toBe(REDACTED);
    // No layout has the proposed value yet: an answer that echoes it shows it.
    expect((await echo(SECRET)).key).toBe(SECRET);
    const current = (await git(qs.bareRepo, ['show', 'master:.zuul.yaml'])).stdout;
    const proposedSecret = await secret(SECRET);
    const proposed = current.replace(/- secret:[\s\S]*?\n\n/, proposedSecret);
    expect(proposed).not.toBe(current);
    await qs.pushChange(3, { '.zuul.yaml': proposed }, 'Another token');
    const from = qs.deltaCount();
    await enqueueChange(qs, 'check', 3);
    const checked = await reportOf(qs, 'check', 3, from);
    expect([checked.result, checked.message]).toEqual(['SUCCESS', expect.any(String)]);
    // The check item was frozen with the proposal's layout: from then on the value is masked.
    expect(await echo(SECRET)).toEqual({ key: REDACTED, message: expect.not.stringContaining(SECRET) as unknown });
    const rest = await fetch(`${qs.url()}/api/tenant/${SECRET}/status`);
    expect(await rest.text()).not.toContain(SECRET);
  });

  it('lists the errors a project-branch had on a change to its configuration, and only there', async () => {
    // A job with a parent nobody defines reaches master directly: the live layout has the error.
    const broken = await pushToMaster((text) =>
      text.replace('- project:', '- job:\n    name: hello-orphan\n    parent: nowhere\n\n- project:'),
    );
    for (let tries = 0; tries < 600 && !(await liveErrors()).some((error) => error.includes('nowhere')); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await liveErrors()).some((error) => error.includes('nowhere'))).toBe(true);

    const withJob = broken.replace(
      '- project:',
      '- job:\n    name: hello-fine\n    run: scripts/unit.sh\n\n- project:',
    );
    await qs.pushChange(4, { '.zuul.yaml': withJob }, 'Define hello-fine');
    await qs.pushChange(5, { 'notes-5.md': 'Notes\n' }, 'Notes');
    const from = qs.deltaCount();
    await enqueueChange(qs, 'check', 4);
    await enqueueChange(qs, 'check', 5);
    // Change 4 changes the configuration of example/hello@master: the error there is listed on it.
    const changesConfig = await reportOf(qs, 'check', 4, from);
    expect(changesConfig.result).toBe('CONFIG_ERROR');
    expect(changesConfig.message).toContain('nowhere');
    expect(changesConfig.message).toMatch(/\.zuul\.yaml", line \d+/);
    // Change 5 leaves the configuration alone and is not blamed.
    expect((await reportOf(qs, 'check', 5, from)).result).toBe('SUCCESS');
  });
});
