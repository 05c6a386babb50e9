/**
 * The `sluice token create` and `sluice encrypt` commands. `src/server/cli.ts` dispatches to
 * them and supplies configuration loading and the database; everything else is here.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { ServiceConfig } from '../config/service';
import type { Database } from '../store/database';
import { ensurePostgresDatabase } from '../store/ensure-database';
import { migrateLatest } from '../store/migrate';
import { KeyRepository } from '../store/repositories/keys';
import { AdminTokenError, createAdminToken } from './admin-token';
import { ensureLocalAdminSecret } from './local-admin';
import { KeyEncryptor, resolveKeyEncryptionSecret } from './keys/key-encryption';
import { KeyManager, type KeySizes } from './keys/key-manager';
import { encryptSecret, secretStanza } from '../secrets/encryption';
import { tenantFileProjectResolver, type ProjectResolver } from './tenant-projects';

export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Reads all of standard input (for `encrypt` without `--infile`). */
  readStdin(): Promise<string>;
}

export interface AuthCommandDeps {
  io: CommandIo;
  /** Load the service configuration (`-c FILE` or the default). */
  loadConfig(file: string | undefined): ServiceConfig;
  openDatabase(config: ServiceConfig): Database;
  now?: () => Date;
  /** Tests inject small key sizes. */
  keySizes?: Partial<KeySizes>;
  /** Defaults to reading the tenant file. */
  resolveProject?: (config: ServiceConfig) => ProjectResolver;
}

export const TOKEN_USAGE = `Usage: sluice token create --tenant TENANT [--tenant TENANT...] --sub NAME [--ttl SECONDS]
                           [--authenticator NAME] [--raw] [-c FILE]

Prints "Bearer <token>": an HS256 admin token for the tenants (like the reference's
create-auth-token). The authenticator must set allowAuthzOverride: true; with auth.localAdmin
the per-install secret in the data directory is used (created when missing). The token is
valid for --ttl seconds, 600 by default.
`;

export const ENCRYPT_USAGE = `Usage: sluice encrypt --tenant TENANT --project PROJECT [--infile FILE] [--name NAME]
                      [--field FIELD] [--no-strip] [-c FILE]

Encrypts FILE (default: standard input) with the project's secrets key and prints a secret
stanza with !encrypted/pkcs1-oaep chunks. Surrounding whitespace is stripped unless --no-strip.
`;

/** `sluice token create ...`; returns the exit code. */
export async function tokenCommand(argv: string[], deps: AuthCommandDeps): Promise<number> {
  const parsed = parse(
    argv,
    {
      tenant: { type: 'string', multiple: true },
      sub: { type: 'string' },
      ttl: { type: 'string' },
      authenticator: { type: 'string' },
      raw: { type: 'boolean' },
      config: { type: 'string', short: 'c' },
      help: { type: 'boolean', short: 'h' },
    },
    TOKEN_USAGE,
    deps.io,
  );
  if (typeof parsed === 'number') {
    return parsed;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'create') {
    return usageError(
      deps.io,
      TOKEN_USAGE,
      positionals[0] === undefined ? 'missing sub-command "create"' : `unknown sub-command "${positionals.join(' ')}"`,
    );
  }
  const tenants = values.tenant ?? [];
  if (tenants.length === 0 || values.sub === undefined || values.sub === '') {
    return usageError(deps.io, TOKEN_USAGE, '--tenant and --sub are required');
  }
  const ttl = values.ttl === undefined ? 600 : Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl <= 0) {
    return usageError(deps.io, TOKEN_USAGE, `--ttl must be a positive number of seconds, got "${values.ttl}"`);
  }
  const config = deps.loadConfig(values.config);
  try {
    await ensureLocalAdminSecret(config);
    const now = (deps.now ?? (() => new Date()))();
    const token = await createAdminToken(config.auth, {
      tenants,
      subject: values.sub,
      ttl,
      authenticator: values.authenticator,
      now,
    });
    deps.io.stdout.write(values.raw ? `${token}\n` : `Bearer ${token}\n`);
    // On stderr, so `TOKEN=$(sluice token create ...)` captures the token alone.
    const expires = new Date(now.getTime() + ttl * 1000).toISOString();
    deps.io.stderr.write(`sluice: the token is valid for ${ttl} s (until ${expires}); --ttl SECONDS changes that\n`);
    return 0;
  } catch (err) {
    if (err instanceof AdminTokenError) {
      deps.io.stderr.write(`sluice: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

/** `sluice encrypt ...`; returns the exit code. */
export async function encryptCommand(argv: string[], deps: AuthCommandDeps): Promise<number> {
  const parsed = parse(
    argv,
    {
      tenant: { type: 'string' },
      project: { type: 'string' },
      infile: { type: 'string' },
      name: { type: 'string' },
      field: { type: 'string' },
      'no-strip': { type: 'boolean' },
      config: { type: 'string', short: 'c' },
      help: { type: 'boolean', short: 'h' },
    },
    ENCRYPT_USAGE,
    deps.io,
  );
  if (typeof parsed === 'number') {
    return parsed;
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) {
    return usageError(deps.io, ENCRYPT_USAGE, `unexpected argument "${positionals[0]}"`);
  }
  if (values.tenant === undefined || values.project === undefined) {
    return usageError(deps.io, ENCRYPT_USAGE, '--tenant and --project are required');
  }
  const config = deps.loadConfig(values.config);
  const resolve = (deps.resolveProject ?? tenantFileProjectResolver)(config);
  const canonical = await resolve(values.tenant, values.project);
  if (canonical === undefined) {
    deps.io.stderr.write(
      `sluice: project "${values.project}" is not part of tenant "${values.tenant}" (checked ${config.tenantConfig ?? 'no tenant file'})\n`,
    );
    return 1;
  }
  const plaintext = values.infile === undefined ? await deps.io.readStdin() : await readFile(values.infile, 'utf8');
  // The project's key is created on demand, so a missing database is created too, as migrate does.
  if (config.database.url !== undefined && (await ensurePostgresDatabase(config.database.url))) {
    deps.io.stderr.write(`sluice: created the database ${new URL(config.database.url).pathname.slice(1)}\n`);
  }
  const database = deps.openDatabase(config);
  try {
    await migrateLatest(database.knex);
    const { secret } = await resolveKeyEncryptionSecret(config.auth, config.dataDir);
    const keys = new KeyManager({
      repository: new KeyRepository(database.knex),
      encryptor: await KeyEncryptor.fromSecret(secret),
      sizes: deps.keySizes,
    });
    const key = await keys.secretsKey(canonical);
    const chunks = encryptSecret(plaintext, key.publicKey(), { strip: !values['no-strip'] });
    deps.io.stdout.write(secretStanza(chunks, { name: values.name, field: values.field }));
    return 0;
  } finally {
    await database.close();
  }
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

export function parse<T extends Options>(argv: string[], options: T, usage: string, io: CommandIo) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    return usageError(io, usage, (err as Error).message);
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.stdout.write(usage);
    return 0;
  }
  return parsed;
}

export function usageError(io: CommandIo, usage: string, message: string): number {
  io.stderr.write(`sluice: ${message}\n\n${usage}`);
  return 2;
}
