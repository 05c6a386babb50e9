/**
 * The per-install admin secret of `auth.localAdmin` (docs/security.md#local-admin-tokens-authlocaladmin):
 * `<dataDir>/local-admin.secret`, created on first use by `sluice serve` or
 * `sluice token create`, whichever runs first. Whoever can read the data directory can mint
 * admin tokens with it, so it is for a machine you control.
 */
import { LOCAL_ADMIN, type ServiceConfig } from '../config/service';
import { readOrCreateSecretFile } from './secret-file';

/** Create the local admin secret when `auth.localAdmin` is on and the file is missing. */
export async function ensureLocalAdminSecret(config: Pick<ServiceConfig, 'auth'>): Promise<void> {
  if (config.auth.localAdmin !== true) {
    return;
  }
  const local = config.auth.authenticators.find((a) => a.name === LOCAL_ADMIN.name);
  if (local?.driver === 'HS256' && local.secretFile !== undefined) {
    await readOrCreateSecretFile(local.secretFile, 'local admin secret', 16);
  }
}
