/**
 * Masking of secret values in every response, and reconfiguration, in GraphQL through a real server
 * whose LayoutManager loads the schema-tenant fixture from real git repositories
 * (test/helpers/schema-tenant.ts).
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REDACTED } from '../../../src/secrets/redact';
import { SECRET_VALUE, useSchemaTenantServer } from '../../helpers/schema-tenant';

const env = useSchemaTenantServer();
const { query, tenantQuery, pushToCommonConfig, layoutManager } = env;

describe('secret values', () => {
  it('are masked in GraphQL (HTTP and WebSocket) and REST responses, errors included', async () => {
    // A careless job puts the secret's value into its variables in clear text.
    await pushToCommonConfig('Add a careless job', (work) => {
      writeFileSync(
        path.join(work, 'zuul.d', '70-leaky.yaml'),
        `- job:\n    name: leaky\n    vars:\n      token: ${SECRET_VALUE}\n      note: before ${SECRET_VALUE} after\n`,
      );
    });
    await layoutManager().reconfigure(['acme']);
    expect(layoutManager().secretRedactor().active).toBe(true);
    const selection = 'job(name: "leaky") { ... on Job { variants { variables } } }';
    const http = await tenantQuery<{ job: { variants: Array<{ variables: unknown }> } }>(selection);
    expect(http.job.variants[0].variables).toEqual({ token: REDACTED, note: `before ${REDACTED} after` });

    const rest = await fetch(`${env.server.url}/api/tenant/acme/job/leaky`);
    const restText = await rest.text();
    expect(rest.status).toBe(200);
    expect(restText).toContain(REDACTED);
    expect(restText).not.toContain(SECRET_VALUE);

    const client = createClient({
      url: `${env.server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const ws = await new Promise<unknown>((resolve, reject) => {
        client.subscribe(
          { query: `{ tenant(name: "acme") { ... on Tenant { ${selection} } } }` },
          { next: (value) => resolve(value), error: reject, complete: () => undefined },
        );
      });
      expect(JSON.stringify(ws)).toContain(REDACTED);
      expect(JSON.stringify(ws)).not.toContain(SECRET_VALUE);
    } finally {
      await client.dispose();
    }

    // Error messages too (here graphql-js merely echoes a bad variable value back).
    const coerced = await query('query Q($flag: Boolean!) { __typename @include(if: $flag) }', { flag: SECRET_VALUE });
    expect(coerced.errors?.[0].message).toContain(`got invalid value "${REDACTED}"`);
    expect(JSON.stringify(coerced)).not.toContain(SECRET_VALUE);
  });
});

describe('reconfiguration', () => {
  it('serves the new layout once the LayoutManager reloads the tenant', async () => {
    await pushToCommonConfig('Add a post pipeline', (work) => {
      writeFileSync(
        path.join(work, 'zuul.d', '60-post.yaml'),
        '- pipeline:\n    name: post\n    manager: supercedent\n    trigger:\n      gerrit:\n        - event: ref-updated\n',
      );
    });
    await layoutManager().reconfigure(['acme']);
    const acmePipelines = await tenantQuery<{ pipelines: { name: string; manager: string }[] }>(
      'pipelines { name manager }',
    );
    expect(acmePipelines.pipelines).toEqual([
      { name: 'check', manager: 'INDEPENDENT' },
      { name: 'gate', manager: 'DEPENDENT' },
      { name: 'periodic', manager: 'INDEPENDENT' },
      { name: 'post', manager: 'SUPERCEDENT' },
    ]);
    // Only acme was reloaded; the other tenant keeps its layout until its own reconfiguration.
    const other = await tenantQuery<{ pipelines: { name: string }[] }>('pipelines { name }', undefined, 'other');
    expect(other.pipelines.map((p) => p.name)).toEqual(['check', 'gate', 'periodic']);
  });
});
