/**
 * The reference's command-line client as far as the server sees it (docs/rest.md#command-line-client):
 * each command makes exactly the HTTP requests listed there, in that order, with the bearer
 * token on every request, and prints the fields listed there. The client itself cannot be
 * installed here; this stand-in records every request (`requests`) so tests can check the list,
 * and renders the printed fields (`Key: value` lines, table rows joined with ` | `) so tests
 * can check what a user would read.
 */
import { constants, createHash, createPublicKey, publicEncrypt } from 'node:crypto';
import { parse } from 'yaml';

export type Json = Record<string, unknown>;

export class ClientError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}: ${body}`);
  }
}

/** The fields of a build's ref: from the nested `ref` (current shape) or the flat record (earlier shape). */
function refOf(build: Json): Json {
  return (build.ref as Json | undefined) ?? build;
}

const show = (value: unknown): string => (value === undefined ? 'N/A' : value === null ? 'None' : String(value));

export class ZuulClient {
  /** `METHOD path?query` of every request made, in order. */
  readonly requests: string[] = [];
  private info: Json | null = null;

  constructor(
    private readonly base: string,
    private readonly token?: string,
  ) {}

  private async request(method: string, url: string, body?: unknown): Promise<Response> {
    const target = new URL(url, this.base);
    this.requests.push(
      `${method} ${target.origin === new URL(this.base).origin ? '' : target.origin}${target.pathname}${target.search}`,
    );
    const headers: Record<string, string> = {};
    if (this.token !== undefined) {
      headers.authorization = `Bearer ${this.token}`;
    }
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    return fetch(target, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  private async checked(method: string, url: string, body?: unknown): Promise<Response> {
    const response = await this.request(method, url, body);
    if (!response.ok) {
      throw new ClientError(response.status, await response.text());
    }
    return response;
  }

  /** Every command first reads `info` once: `info.tenant` set means a white-label deployment. */
  private async prefix(tenant: string): Promise<string> {
    if (this.info === null) {
      const body = (await (await this.checked('GET', '/api/info')).json()) as { info: Json };
      this.info = body.info;
    }
    return this.info.tenant ? '/api/' : `/api/tenant/${tenant}/`;
  }

  async autohold(
    tenant: string,
    args: {
      project: string;
      job: string;
      change?: string;
      ref?: string;
      reason: string;
      count: number;
      nodeHoldExpiration?: number;
    },
  ): Promise<boolean> {
    const prefix = await this.prefix(tenant);
    const response = await this.checked('POST', `${prefix}project/${args.project}/autohold`, {
      reason: args.reason,
      count: args.count,
      job: args.job,
      change: args.change ?? null,
      ref: args.ref ?? null,
      node_hold_expiration: args.nodeHoldExpiration ?? null,
    });
    return (await response.json()) === true;
  }

  async autoholdList(tenant: string): Promise<string[]> {
    const prefix = await this.prefix(tenant);
    const requests = (await (await this.checked('GET', `${prefix}autohold`)).json()) as Json[];
    return requests.map((r) =>
      [r.id, r.tenant, r.project, r.job, r.ref_filter, r.max_count, r.current_count, r.reason].map(show).join(' | '),
    );
  }

  async autoholdInfo(tenant: string, id: string): Promise<string> {
    const prefix = await this.prefix(tenant);
    const r = (await (await this.checked('GET', `${prefix}autohold/${id}`)).json()) as Json;
    const lines = [
      `ID: ${show(r.id)}`,
      `Tenant: ${show(r.tenant)}`,
      `Project: ${show(r.project)}`,
      `Job: ${show(r.job)}`,
      `Ref Filter: ${show(r.ref_filter)}`,
      `Max Count: ${show(r.max_count)}`,
      `Current Count: ${show(r.current_count)}`,
      `Node Expiration: ${show(r.node_expiration)}`,
      `Request Expiration: ${r.expired ? new Date((r.expired as number) * 1000).toUTCString() : 'N/A'}`,
      `Reason: ${show(r.reason)}`,
      'Held Nodes:',
      ...((r.nodes as Json[] | undefined) ?? []).map(
        (held) => `  Build: ${show(held.build)} Nodes: ${((held.nodes as string[]) ?? []).join(', ')}`,
      ),
    ];
    return lines.join('\n');
  }

  async autoholdDelete(tenant: string, id: string): Promise<boolean> {
    const prefix = await this.prefix(tenant);
    const response = await this.checked('DELETE', `${prefix}autohold/${id}`);
    return response.status === 204;
  }

  async enqueue(tenant: string, args: { pipeline: string; project: string; change: string }): Promise<boolean> {
    const prefix = await this.prefix(tenant);
    const response = await this.checked('POST', `${prefix}project/${args.project}/enqueue`, {
      change: args.change,
      pipeline: args.pipeline,
    });
    return (await response.json()) === true;
  }

  async enqueueRef(
    tenant: string,
    args: { pipeline: string; project: string; ref: string; oldrev?: string; newrev?: string },
  ): Promise<boolean> {
    const prefix = await this.prefix(tenant);
    // The client's defaults for --oldrev and --newrev: the zero revision.
    const zero = '0'.repeat(40);
    const response = await this.checked('POST', `${prefix}project/${args.project}/enqueue`, {
      ref: args.ref,
      oldrev: args.oldrev ?? zero,
      newrev: args.newrev ?? zero,
      pipeline: args.pipeline,
    });
    return (await response.json()) === true;
  }

  async dequeue(
    tenant: string,
    args: { pipeline: string; project: string; change?: string; ref?: string },
  ): Promise<boolean> {
    const prefix = await this.prefix(tenant);
    const body: Json = { pipeline: args.pipeline };
    if (args.change !== undefined) {
      body.change = args.change;
    } else {
      body.ref = args.ref;
    }
    const response = await this.checked('POST', `${prefix}project/${args.project}/dequeue`, body);
    return (await response.json()) === true;
  }

  async promote(tenant: string, args: { pipeline: string; changes: string[] }): Promise<boolean> {
    const prefix = await this.prefix(tenant);
    const response = await this.checked('POST', `${prefix}promote`, { pipeline: args.pipeline, changes: args.changes });
    return (await response.json()) === true;
  }

  /**
   * `encrypt`: the project's public key, then the secret encrypted locally in chunks of
   * (key bytes - 42) with RSA-OAEP (SHA-1), each chunk base64 and wrapped at 79 columns.
   */
  async encrypt(
    tenant: string,
    args: { project: string; secretName: string; fieldName: string; plaintext: string },
  ): Promise<string> {
    const prefix = await this.prefix(tenant);
    const pem = await (await this.checked('GET', `${prefix}key/${args.project}.pub`)).text();
    const key = createPublicKey(pem);
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    const maxBytes = bits / 8 - 42;
    const plain = Buffer.from(args.plaintext.trim(), 'utf8');
    const lines = [
      '- secret:',
      `    name: ${args.secretName}`,
      '    data:',
      `      ${args.fieldName}: !encrypted/pkcs1-oaep`,
    ];
    for (let start = 0; start < plain.length; start += maxBytes) {
      const chunk = publicEncrypt(
        { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
        plain.subarray(start, start + maxBytes),
      ).toString('base64');
      // textwrap: "        - " then 69 characters, continuation lines indented by 10 with 69 each.
      lines.push(`        - ${chunk.slice(0, 69)}`);
      for (let at = 69; at < chunk.length; at += 69) {
        lines.push(`          ${chunk.slice(at, at + 69)}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }

  async builds(tenant: string, filters: Record<string, string | number>): Promise<string[]> {
    const prefix = await this.prefix(tenant);
    const query = new URLSearchParams(
      Object.entries({ limit: 50, skip: 0, ...filters }).map(([k, v]) => [k, String(v)]),
    );
    const builds = (await (await this.checked('GET', `${prefix}builds?${query.toString()}`)).json()) as Json[];
    return builds.map((build) => {
      const ref = refOf(build);
      const change = ref.change && ref.patchset ? `${String(ref.change)},${String(ref.patchset)}` : ref.ref;
      return [
        build.uuid,
        build.job_name,
        ref.project,
        ref.branch,
        build.pipeline,
        change,
        build.duration,
        build.start_time,
        build.result,
        build.event_id,
      ]
        .map(show)
        .join(' | ');
    });
  }

  /**
   * `build-info`: the build, then its inventory from the log server (parsed as YAML, whatever
   * the answer); with `showJobOutput` only the raw `job-output.txt` is printed.
   */
  async buildInfo(
    tenant: string,
    uuid: string,
    options: { showJobOutput?: boolean; showArtifacts?: boolean; showInventory?: boolean } = {},
  ): Promise<string> {
    const prefix = await this.prefix(tenant);
    const build = (await (await this.checked('GET', `${prefix}build/${uuid}`)).json()) as Json;
    const logUrl = build.log_url as string;
    const jobOutputUrl = new URL('job-output.txt', logUrl).toString();
    const inventoryText = await (
      await this.request('GET', new URL('zuul-info/inventory.yaml', logUrl).toString())
    ).text();
    let inventory: unknown;
    try {
      inventory = parse(inventoryText);
    } catch (err) {
      inventory = { error: String(err) };
    }
    if (options.showJobOutput) {
      return (await this.checked('GET', jobOutputUrl)).text();
    }
    const ref = refOf(build);
    const buildset = build.buildset as Json | undefined;
    const lines = [
      `UUID: ${show(build.uuid)}`,
      `Result: ${show(build.result)}`,
      `Pipeline: ${show(build.pipeline)}`,
      `Project: ${show(ref.project)}`,
      `Job: ${show(build.job_name)}`,
      ...(ref.newrev ? [`Ref: ${show(ref.ref)}`, `New Rev: ${show(ref.newrev)}`] : []),
      ...(ref.change && ref.patchset ? [`Change: ${String(ref.change)},${String(ref.patchset)}`] : []),
      `Branch: ${show(ref.branch)}`,
      `Ref URL: ${show(ref.ref_url)}`,
      `Event ID: ${show(build.event_id)}`,
      `Buildset ID: ${show(buildset?.uuid)}`,
      `Start time: ${show(build.start_time)}`,
      `End time: ${show(build.end_time)}`,
      `Duration: ${show(build.duration)}`,
      `Voting: ${build.voting ? 'Yes' : 'No'}`,
      `Log URL: ${show(logUrl)}`,
      `Node: ${show(build.nodeset)}`,
      ...(((build.provides as Json[] | undefined) ?? []).length > 0
        ? ['Provides:', ...(build.provides as Json[]).map((p) => `- ${show(p.name)}`)]
        : []),
      `Final: ${build.final === undefined || build.final === null ? 'N/A' : build.final ? 'Yes' : 'No'}`,
      `Held: ${build.held === undefined || build.held === null ? 'N/A' : build.held ? 'Yes' : 'No'}`,
    ];
    if (options.showArtifacts) {
      lines.push('Artifacts:', ...((build.artifacts as Json[]) ?? []).map((a) => `${show(a.name)} | ${show(a.url)}`));
    }
    if (options.showInventory) {
      lines.push('Inventory:', typeof inventory === 'string' ? inventory : JSON.stringify(inventory));
    }
    return lines.join('\n');
  }

  async jobGraph(tenant: string, args: { pipeline: string; project: string; branch: string }): Promise<string[]> {
    const prefix = await this.prefix(tenant);
    const jobs = (await (
      await this.checked(
        'GET',
        `${prefix}pipeline/${args.pipeline}/project/${args.project}/branch/${args.branch}/freeze-jobs`,
      )
    ).json()) as Json[];
    return jobs.map((job) => {
      const dependencies = (job.dependencies as Json[]).map((d) => `${show(d.name)}${d.soft ? ' (soft)' : ''}`);
      return `${show(job.name)} | ${dependencies.join(', ')}`;
    });
  }

  async freezeJob(
    tenant: string,
    args: { pipeline: string; project: string; branch: string; job: string },
  ): Promise<Json> {
    const prefix = await this.prefix(tenant);
    return (await (
      await this.checked(
        'GET',
        `${prefix}pipeline/${args.pipeline}/project/${args.project}/branch/${args.branch}/freeze-job/${args.job}`,
      )
    ).json()) as Json;
  }
}

/** The SHA-256 of a text, hex: what a job prints to show it saw a secret without printing it. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
