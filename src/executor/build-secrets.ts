/**
 * A build's secrets on the executor (docs/security.md#secrets): the still-encrypted secrets of the
 * build request are decrypted with the defining projects' keys just before the build runs,
 * written for each step into its secrets file (only the secrets bound to that step), and every
 * value is masked in whatever the build leaves behind: log lines, files in the log directory,
 * the error detail and the results (data, artifacts, warnings).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { createRedactor, secretStrings, type Redactor } from '../secrets/redact';
import { decryptSecretData, SecretDataError, type SecretsKeySource } from '../secrets/secret-data';
import type { BuildRequestParams, BuildSecret, BuildStep } from '../model/build-request';
import type { RunOutcome } from './runner';
import { OidcTokenIssuer, type OidcBuildFacts, type OidcTokenSource } from './oidc-tokens';
import { canonicalNameOf } from './zuul-variables';

export interface DecryptedBuildSecrets {
  /** Decrypted data by index of `BuildJob.secrets`. */
  values: unknown[];
  /** Masks every string value of every secret (inactive without secrets), and every OIDC token. */
  redactor: Redactor;
  /** Issues the tokens of the build's `oidc` secrets (absent when it has none). */
  oidc?: OidcTokenIssuer;
}

/** What the tokens of a build's `oidc` secrets need (docs/security.md#oidc-tokens). */
export interface BuildOidcContext {
  source: OidcTokenSource | undefined;
  facts: OidcBuildFacts;
  now: () => Date;
  warn: (message: string) => void;
}

export const NO_SECRETS: DecryptedBuildSecrets = { values: [], redactor: createRedactor([]) };

/** A secret of the build could not be decrypted; the message names it, never its content. */
export class BuildSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildSecretError';
  }
}

/** Decrypt the build's secrets. */
export async function decryptBuildSecrets(
  secrets: readonly BuildSecret[],
  keys: (() => Promise<SecretsKeySource>) | undefined,
  oidc?: BuildOidcContext,
): Promise<DecryptedBuildSecrets> {
  if (secrets.length === 0) {
    return NO_SECRETS;
  }
  const encrypted = secrets.filter((secret) => secret.oidc === undefined);
  if (keys === undefined && encrypted.length > 0) {
    throw new BuildSecretError(
      `Secret ${encrypted[0].name} cannot be decrypted: this executor has no access to the projects' secrets keys`,
    );
  }
  const source = encrypted.length > 0 && keys !== undefined ? await keys() : undefined;
  const values: unknown[] = [];
  for (const secret of secrets) {
    if (secret.oidc !== undefined || source === undefined) {
      values.push(undefined); // an OIDC secret's value is the token each step run gets
      continue;
    }
    let privateKey;
    try {
      privateKey = (await source.secretsKey(secret.project)).privateKey();
    } catch {
      throw new BuildSecretError(
        `Secret ${secret.name} cannot be decrypted: the secrets key of project ${secret.project} could not be loaded`,
      );
    }
    try {
      values.push(decryptSecretData(secret.data, privateKey));
    } catch (err) {
      if (err instanceof SecretDataError) {
        throw new BuildSecretError(
          `Secret ${secret.name} of project ${secret.project} could not be decrypted: ${err.message}`,
        );
      }
      throw err;
    }
  }
  const redactor = createRedactor(values.flatMap(secretStrings));
  if (encrypted.length === secrets.length || oidc === undefined) {
    return { values, redactor };
  }
  const issuer = new OidcTokenIssuer(oidc.source, oidc.facts, redactor, oidc.now, oidc.warn);
  return { values, redactor: issuer.redactor, oidc: issuer };
}

/** Decrypt the secrets of a build request; its `oidc` secrets get tokens from `options.oidc`. */
export function decryptRequestSecrets(
  params: BuildRequestParams,
  options: { secretKeys?: () => Promise<SecretsKeySource>; oidc?: OidcTokenSource; now?: () => Date },
  warn: (message: string) => void,
): Promise<DecryptedBuildSecrets> {
  return decryptBuildSecrets(params.job.secrets ?? [], options.secretKeys, {
    source: options.oidc,
    facts: {
      tenant: params.tenant,
      project: canonicalNameOf(params, params.item.project, params.item.connection),
      buildUuid: params.buildUuid,
      jobName: params.job.name,
      pipeline: params.pipeline,
    },
    now: options.now ?? (() => new Date()),
    warn,
  });
}

/** The document of a step's secrets file: `{<alias>: <secret data>}` for the step's secrets only. */
export function stepSecretsDocument(step: BuildStep, secrets: DecryptedBuildSecrets): Record<string, unknown> {
  return Object.fromEntries((step.secrets ?? []).map((used) => [used.alias, secrets.values[used.secret]]));
}

/** The outcome with every secret value masked. */
export function redactOutcome(outcome: RunOutcome, redactor: Redactor): RunOutcome {
  if (!redactor.active) {
    return outcome;
  }
  return {
    result: outcome.result,
    errorDetail: outcome.errorDetail === null ? null : redactor.redact(outcome.errorDetail),
    results: redactor.redactJson(outcome.results),
    warnings: redactor.redactJson(outcome.warnings),
  };
}

/** Bytes looked at to tell a text file from a binary one. */
const SNIFF_BYTES = 8192;

/**
 * Mask secret values in every text file under the build's log directory (steps may put files
 * there and they are published with the log), line by line, so large files are streamed.
 * Binary files (a NUL byte in their first 8 KiB) are left alone. `skip` lists files that are
 * already clean (the job output, redacted as it is written).
 */
export async function redactLogDirectory(dir: string, redactor: Redactor, skip: readonly string[] = []): Promise<void> {
  if (!redactor.active) {
    return;
  }
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return; // nothing was published
  }
  for (const entry of entries) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || skip.includes(file) || !(await isText(file))) {
      continue;
    }
    await redactFile(file, redactor);
  }
}

async function isText(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return !buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** Rewrite a file with secrets masked; a file without any is left untouched. */
async function redactFile(file: string, redactor: Redactor): Promise<void> {
  const temporary = `${file}.sluice-redact`;
  const input = createReadStream(file, { encoding: 'utf8' });
  const output = createWriteStream(temporary, { mode: 0o644 });
  let changed = false;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const masked = redactor.redact(line);
      changed ||= masked !== line;
      if (!output.write(`${masked}\n`)) {
        await new Promise<void>((resolve) => output.once('drain', () => resolve()));
      }
    }
    output.end();
    await finished(output);
    if (changed) {
      await rename(temporary, file);
    } else {
      await rm(temporary, { force: true });
    }
  } catch (err) {
    output.destroy();
    await rm(temporary, { force: true });
    throw err;
  }
}
