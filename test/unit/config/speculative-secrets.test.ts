/**
 * Secrets that exist only in a proposal (docs/gating.md#speculative-layouts): a speculative layout
 * whose secrets decrypt hands its redactor to the service, which masks those values from then on.
 */
import { generateKeyPairSync } from 'node:crypto';
import knexFactory from 'knex';
import { buildLayoutSync } from '../../../src/config/layout-builder';
import { LayoutManager } from '../../../src/config/layout-manager';
import { SpeculativeLayouts } from '../../../src/config/speculative-layouts';
import { encryptSecret } from '../../../src/secrets/encryption';
import { REDACTED, type Redactor } from '../../../src/secrets/redact';
import { silentLogger } from '../../../src/server/logger';
import { memoryLayoutInput } from '../../helpers/memory-layout';

const APP = 'review.example.com/org/app';
const appKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PROPOSED_VALUE = 'a-token-only-the-proposal-has';

const CONFIG = `
- pipeline: {name: check, manager: independent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
`;
const APP_FILES = `
- job: {name: unit, run: unit.sh}
- project: {check: {jobs: [unit]}}
`;

function proposal(): string {
  const chunks = encryptSecret(PROPOSED_VALUE, appKey.publicKey, { strip: false });
  return `${APP_FILES}- secret:
    name: token
    data:
      value: !encrypted/pkcs1-oaep
${chunks.map((chunk) => `        - ${chunk}\n`).join('')}`;
}

describe('secrets of speculative layouts', () => {
  it('are masked by the service redactor once a layout with them is built', async () => {
    const input = memoryLayoutInput(
      [
        { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': CONFIG } } },
        { name: 'org/app', branches: { master: { '.zuul.yaml': APP_FILES } } },
      ],
      undefined,
      new Map([[APP, appKey.privateKey]]),
    );
    const live = buildLayoutSync(input);
    const seen: Redactor[] = [];
    const speculative = new SpeculativeLayouts(live, input, undefined, (redactor) => seen.push(redactor));
    const built = speculative.resolve([
      { project: APP, branch: 'master', files: [{ path: '.zuul.yaml', text: proposal() }], ignoredLocations: [] },
    ]);
    expect(built.errors).toEqual([]);
    expect(seen).toHaveLength(1);

    const knex = knexFactory({ client: 'pg' });
    try {
      const manager = new LayoutManager({
        config: { connections: {}, dataDir: '/nonexistent', tenantConfig: '/nonexistent/main.yaml' },
        knex,
        logger: silentLogger(),
      });
      const text = `the value is ${PROPOSED_VALUE}`;
      expect(manager.secretRedactor().redact(text)).toBe(text);
      manager.addSpeculativeRedactor(seen[0]);
      expect(manager.secretRedactor().redact(text)).toBe(`the value is ${REDACTED}`);
    } finally {
      await knex.destroy();
    }
  });
});
