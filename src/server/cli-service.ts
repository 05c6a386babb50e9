/**
 * The commands of `sluice` (src/server/cli.ts) that open the database or run the server: loaded
 * only when one of them runs, so `sluice version` and `sluice token create` start fast.
 */
import { migrateLatest } from '../store/migrate';
import { ReconfigureRequestRepository } from '../store/repositories/reconfigure-requests';
import { seedRepositories } from '../drivers/git/seed';
import { DataDirectoryInUseError } from '../store/data-dir-lock';
import { ensurePostgresDatabase, DatabaseSetupError } from '../store/ensure-database';
import type { ServiceConfig } from '../config/service';
import { buildApp, databaseFor } from './app';
import { missingDatabase } from './app-services';
import { ListenError } from './app-lifecycle';
import { startBanner } from './banner';
import { createLogger } from './logger';
import { validateDeployment } from './validate';

export { databaseFor };

/** How long after `shutdownTimeout` the process exits even if the stop has not returned (docs/operations.md#shutdown). */
const HARD_EXIT_GRACE_MS = 1000;

/** Failures an operator acts on, in one line without a stack; undefined for anything else. */
export function operatorMessage(err: unknown): string | undefined {
  return err instanceof DataDirectoryInUseError || err instanceof ListenError || err instanceof DatabaseSetupError
    ? err.message
    : undefined;
}

/** Exit 1 with the one-line message of an operator's failure; anything else is rethrown (with its stack). */
export function reportOperatorError(err: unknown): number {
  const message = operatorMessage(err);
  if (message === undefined) {
    throw err;
  }
  process.stderr.write(`sluice: ${message}\n`);
  return 1;
}

/** A PostgreSQL database that does not exist yet is created first (src/store/ensure-database.ts). */
async function prepareDatabase(config: ServiceConfig, created: (name: string) => void): Promise<void> {
  if (config.database.url !== undefined && (await ensurePostgresDatabase(config.database.url))) {
    created(new URL(config.database.url).pathname.slice(1));
  }
}

export async function serve(config: ServiceConfig): Promise<number> {
  const logger = createLogger();
  await prepareDatabase(config, (database) => logger.info({ database }, 'created the database'));
  const app = buildApp({ config, logger }); // authenticators come from config.auth
  let address;
  try {
    // Open the database while the repositories are seeded (a fresh embedded store unpacks its
    // cluster and starts PostgreSQL then); a store another process holds ends the start here,
    // any other failure surfaces again in app.start().
    const opening = app.database.knex.raw('select 1').then(
      () => undefined,
      (err: unknown) => err,
    );
    for (const [name, conn] of Object.entries(config.connections)) {
      if (conn.driver === 'git' && conn.seedFrom) {
        const seeded = await seedRepositories(conn.seedFrom, conn.baseurl);
        for (const repo of seeded) {
          logger.info({ connection: name, project: repo.project, path: repo.path }, 'created repository from seed');
        }
      }
    }
    const refused = await opening;
    if (refused instanceof DataDirectoryInUseError) {
      throw refused;
    }
    address = await app.start();
  } catch (err) {
    // Nothing of a failed start keeps running: whatever it started stops, and the process
    // exits now (docs/operations.md#one-process-per-embedded-store).
    process.stderr.write(
      `sluice: ${operatorMessage(err) ?? (err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
    );
    setTimeout(() => process.exit(1), config.shutdownTimeout * 1000).unref();
    await app.stop();
    process.exit(1);
  }
  process.stdout.write(startBanner(config, address));
  // SIGHUP reloads every tenant, as `sluice reconfigure` does; the one way to ask it of a
  // process on the embedded store, which no other process may open (docs/project-configuration.md#reconfiguration).
  const onHangUp = (): void => {
    logger.info('SIGHUP: reloading every tenant');
    app.layoutManager?.reconfigure().catch((err: unknown) => logger.error({ err }, 'reconfiguration failed'));
  };
  process.on('SIGHUP', onHangUp);
  await new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      logger.info({ signal }, 'signal received');
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      process.off('SIGHUP', onHangUp);
      resolve();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  // Bounded in every state (docs/operations.md#shutdown): the stop ends its steps by
  // `shutdownTimeout` after the signal and sets the code (0 when every step finished, 1 when it
  // abandoned one); a moment later the process exits whatever is still open (a connection
  // attempt to a database that is gone), with 1 if the stop had not even returned.
  setTimeout(() => process.exit(process.exitCode ?? 1), config.shutdownTimeout * 1000 + HARD_EXIT_GRACE_MS).unref();
  const code = (await app.stop()) ? 0 : 1;
  process.exitCode = code;
  return code;
}

export async function migrate(config: ServiceConfig): Promise<number> {
  await prepareDatabase(config, (database) => process.stdout.write(`Created database ${database}.\n`));
  const database = databaseFor(config);
  try {
    const applied = await migrateLatest(database.knex);
    process.stdout.write(applied.length === 0 ? 'Database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

export async function reconfigure(config: ServiceConfig, tenant: string | undefined, smart = false): Promise<number> {
  await prepareDatabase(config, (database) => process.stdout.write(`Created database ${database}.\n`));
  const database = databaseFor(config);
  try {
    try {
      await migrateLatest(database.knex);
    } catch (err) {
      if (err instanceof DataDirectoryInUseError && err.pid !== undefined) {
        process.stderr.write(
          `sluice: the service (pid ${err.pid}) holds the embedded database ${err.directory}; ` +
            `kill -HUP ${err.pid} makes it reload every tenant\n`,
        );
        return 1;
      }
      throw err;
    }
    const id = await new ReconfigureRequestRepository(database.knex).request(tenant, new Date(), smart);
    const which = smart
      ? 'the tenants whose tenant-file entry changed'
      : tenant === undefined
        ? 'all tenants'
        : `tenant ${tenant}`;
    process.stdout.write(`Reconfiguration of ${which} requested (request ${id}).\n`);
    return 0;
  } finally {
    await database.close();
  }
}

export async function validate(
  config: ServiceConfig,
  options: { offline: boolean; decryptSecrets: boolean },
): Promise<number> {
  const report = await validateDeployment(config, { ...options, openDatabase: databaseFor, missingDatabase });
  for (const line of report.lines) {
    process.stdout.write(`${line}\n`);
  }
  process.stdout.write(`${report.errors} error(s), ${report.warnings} warning(s)\n`);
  return report.errors > 0 ? 1 : 0;
}
