/**
 * `sluice delete-oidc-signing-keys ALGORITHM` (docs/security.md#oidc-tokens): deletes every
 * stored signing key of the algorithm; the next token or rotation creates a new version 0.
 */
import { ensurePostgresDatabase } from '../store/ensure-database';
import { migrateLatest } from '../store/migrate';
import { OidcSigningKeyRepository } from '../store/repositories/oidc-signing-keys';
import { parse, usageError, type AuthCommandDeps } from './cli-commands';
import { OIDC_SIGNING_ALGORITHMS } from './keys/oidc-signing-keys';

export const DELETE_OIDC_KEYS_USAGE = `Usage: sluice delete-oidc-signing-keys ALGORITHM [-c FILE]

Deletes every OIDC signing key of ALGORITHM (${OIDC_SIGNING_ALGORITHMS.join(', ')}) from the database.
Tokens they signed no longer verify; the next token issued, or the next rotation, creates new keys.
`;

/** `sluice delete-oidc-signing-keys ALGORITHM`; returns the exit code. */
export async function deleteOidcSigningKeysCommand(argv: string[], deps: AuthCommandDeps): Promise<number> {
  const parsed = parse(
    argv,
    { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } },
    DELETE_OIDC_KEYS_USAGE,
    deps.io,
  );
  if (typeof parsed === 'number') {
    return parsed;
  }
  const [algorithm, ...rest] = parsed.positionals;
  if (algorithm === undefined || rest.length > 0) {
    return usageError(deps.io, DELETE_OIDC_KEYS_USAGE, 'give exactly one ALGORITHM');
  }
  if (!(OIDC_SIGNING_ALGORITHMS as readonly string[]).includes(algorithm)) {
    return usageError(
      deps.io,
      DELETE_OIDC_KEYS_USAGE,
      `unsupported algorithm "${algorithm}" (supported: ${OIDC_SIGNING_ALGORITHMS.join(', ')})`,
    );
  }
  const config = deps.loadConfig(parsed.values.config as string | undefined);
  if (config.database.url !== undefined) {
    await ensurePostgresDatabase(config.database.url);
  }
  const database = deps.openDatabase(config);
  try {
    await migrateLatest(database.knex);
    const deleted = await new OidcSigningKeyRepository(database.knex).deleteAlgorithm(algorithm);
    deps.io.stdout.write(`Deleted ${deleted} OIDC signing key(s) of ${algorithm}\n`);
    return 0;
  } finally {
    await database.close();
  }
}
