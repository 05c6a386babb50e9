/**
 * The `sluice` command line: serve, migrate, validate-config, token, encrypt, version.
 * Exit codes: 0 success, 1 a problem was found or the command failed, 2 usage error.
 */
import { parseArgs } from 'node:util';
import { encryptCommand, tokenCommand, type AuthCommandDeps } from '../auth/cli-commands';
import { loadServiceConfig, defaultServiceConfig, ServiceConfigError, type ServiceConfig } from '../config/service';
import { SLUICE_VERSION } from '../model/version';
import { migrateLatest } from '../store/migrate';
import { ReconfigureRequestRepository } from '../store/repositories/reconfigure-requests';
import { seedRepositories } from '../drivers/git/seed';
import { DataDirectoryInUseError } from '../store/data-dir-lock';
import { buildApp, databaseFor } from './app';
import { ListenError } from './app-lifecycle';
import { startBanner } from './banner';
import { createLogger } from './logger';
import { validateDeployment } from './validate';
import { parseRoleList, ROLE_NAMES, type RoleSet } from '../model/roles';

const USAGE = `Usage: sluice <command> [options]

Commands:
  serve             run the service (all roles in one process, or those --roles names)
  migrate           apply pending database migrations and exit
  validate-config   check the service, tenant and project configuration; non-zero exit on errors
                    (--decrypt-secrets: also decrypt every secret with its project's key)
  reconfigure       ask the running service to reload tenant configuration (--tenant T for one tenant)
  token create      mint an HS256 admin token (sluice token --help)
  encrypt           encrypt a secret for a project (sluice encrypt --help)
  version           print the version

Options:
  -c, --config FILE   service configuration file (default: $SLUICE_CONFIG, else built-in defaults)
  -r, --roles LIST    (serve) roles to run, comma-separated: api, scheduler, executor,
                      launcher (default: the configuration's roles key, else all four)
  -t, --tenant NAME   (reconfigure) only this tenant
      --offline       (validate-config) no network: tenants with projects on GitHub or
                      remote git connections are not loaded (said per tenant)
      --decrypt-secrets  (validate-config) check that every secret decrypts with its project's
                      key, read from the database (exit 1 when one does not)
  -h, --help          show this help
`;

const AUTH_COMMANDS: Record<string, (argv: string[], deps: AuthCommandDeps) => Promise<number>> = {
  token: tokenCommand,
  encrypt: encryptCommand,
};

export async function main(argv: string[]): Promise<number> {
  const authCommand = AUTH_COMMANDS[argv[0] ?? ''];
  if (authCommand !== undefined) {
    return runAuthCommand(authCommand, argv.slice(1));
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string', short: 'c' },
        tenant: { type: 'string', short: 't' },
        roles: { type: 'string', short: 'r' },
        offline: { type: 'boolean' },
        'decrypt-secrets': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    process.stderr.write(`sluice: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === undefined || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  if (rest.length > 0) {
    process.stderr.write(`sluice: unexpected argument "${rest[0]}"\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.roles !== undefined && command !== 'serve') {
    process.stderr.write(`sluice: --roles applies to serve only\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.offline === true && command !== 'validate-config') {
    process.stderr.write(`sluice: --offline applies to validate-config only\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values['decrypt-secrets'] !== undefined && command !== 'validate-config') {
    process.stderr.write(`sluice: --decrypt-secrets applies to validate-config only\n\n${USAGE}`);
    return 2;
  }
  let roles: RoleSet | undefined;
  try {
    roles = parsed.values.roles === undefined ? undefined : parseRoleList(parsed.values.roles);
  } catch (err) {
    process.stderr.write(`sluice: --roles: ${(err as Error).message}\n`);
    return 2;
  }
  if (command === 'version') {
    process.stdout.write(`sluice ${SLUICE_VERSION}\n`);
    return 0;
  }
  let config: ServiceConfig;
  try {
    config = readConfig(parsed.values.config);
  } catch (err) {
    if (err instanceof ServiceConfigError) {
      process.stderr.write(`sluice: invalid configuration:\n${err.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    throw err;
  }
  try {
    switch (command) {
      case 'serve':
        // The command line wins over the configuration's roles key.
        return await serve(
          roles === undefined ? config : { ...config, roles: ROLE_NAMES.filter((role) => roles.has(role)) },
        );
      case 'migrate':
        return await migrate(config);
      case 'validate-config':
        return await validate(config, {
          offline: parsed.values.offline === true,
          decryptSecrets: parsed.values['decrypt-secrets'] === true,
        });
      case 'reconfigure':
        return await reconfigure(config, parsed.values.tenant);
      default:
        process.stderr.write(`sluice: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    return reportOperatorError(err);
  }
}

/** Failures an operator acts on, in one line without a stack; undefined for anything else. */
export function operatorMessage(err: unknown): string | undefined {
  return err instanceof DataDirectoryInUseError || err instanceof ListenError ? err.message : undefined;
}

/** Exit 1 with the one-line message of an operator's failure; anything else is rethrown (with its stack). */
function reportOperatorError(err: unknown): number {
  const message = operatorMessage(err);
  if (message === undefined) {
    throw err;
  }
  process.stderr.write(`sluice: ${message}\n`);
  return 1;
}

async function runAuthCommand(
  command: (argv: string[], deps: AuthCommandDeps) => Promise<number>,
  argv: string[],
): Promise<number> {
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) {
        chunks.push(Buffer.from(chunk as Buffer));
      }
      return Buffer.concat(chunks).toString('utf8');
    },
  };
  try {
    return await command(argv, { io, loadConfig: readConfig, openDatabase: databaseFor });
  } catch (err) {
    if (err instanceof ServiceConfigError) {
      process.stderr.write(`sluice: invalid configuration:\n${err.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    return reportOperatorError(err);
  }
}

function readConfig(file: string | undefined): ServiceConfig {
  const env = { PORT: process.env.PORT, DATABASE_URL: process.env.DATABASE_URL };
  const path = file ?? process.env.SLUICE_CONFIG;
  return path ? loadServiceConfig(path, env) : defaultServiceConfig(process.cwd(), env);
}

async function serve(config: ServiceConfig): Promise<number> {
  const logger = createLogger();
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
  // Bounded in every state (docs/operations.md#shutdown): at `shutdownTimeout` after the signal
  // the process exits, whatever is still open (a connection attempt to a database that is gone):
  // 0 when the stop completed, 1 when it abandoned a step (or had not finished).
  setTimeout(() => process.exit(process.exitCode ?? 1), config.shutdownTimeout * 1000).unref();
  const code = (await app.stop()) ? 0 : 1;
  process.exitCode = code;
  return code;
}

async function migrate(config: ServiceConfig): Promise<number> {
  const database = databaseFor(config);
  try {
    const applied = await migrateLatest(database.knex);
    process.stdout.write(applied.length === 0 ? 'Database is up to date.\n' : `Applied: ${applied.join(', ')}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

async function reconfigure(config: ServiceConfig, tenant: string | undefined): Promise<number> {
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
    const id = await new ReconfigureRequestRepository(database.knex).request(tenant, new Date());
    process.stdout.write(
      `Reconfiguration of ${tenant === undefined ? 'all tenants' : `tenant ${tenant}`} requested (request ${id}).\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

async function validate(
  config: ServiceConfig,
  options: { offline: boolean; decryptSecrets: boolean },
): Promise<number> {
  const report = await validateDeployment(config, { ...options, openDatabase: databaseFor });
  for (const line of report.lines) {
    process.stdout.write(`${line}\n`);
  }
  process.stdout.write(`${report.errors} error(s), ${report.warnings} warning(s)\n`);
  return report.errors > 0 ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`sluice: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
