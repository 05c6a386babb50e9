/**
 * The `sluice` command line: serve, migrate, validate-config, token, encrypt, version.
 * Exit codes: 0 success, 1 a problem was found or the command failed, 2 usage error.
 */
import { parseArgs } from 'node:util';
import type { AuthCommandDeps } from '../auth/cli-commands';
import type * as AuthCommands from '../auth/cli-commands';
import type * as OidcCommands from '../auth/oidc-cli';
import type { ServiceConfig } from '../config/service';
import type * as ServiceConfigModule from '../config/service';
import type * as CliService from './cli-service';
import { SLUICE_VERSION } from '../model/version';
import { parseRoleList, ROLE_NAMES, type RoleSet } from '../model/roles';

// What a command needs is loaded when it runs: `sluice version` and `sluice token create` do not
// load the server (docs/operations.md#the-sluice-command).
/* eslint-disable @typescript-eslint/no-require-imports */
const service = (): typeof CliService => require('./cli-service') as typeof CliService;
const configModule = (): typeof ServiceConfigModule => require('../config/service') as typeof ServiceConfigModule;
const authCommands = (): typeof AuthCommands => require('../auth/cli-commands') as typeof AuthCommands;
const oidcCommands = (): typeof OidcCommands => require('../auth/oidc-cli') as typeof OidcCommands;
/* eslint-enable @typescript-eslint/no-require-imports */

const USAGE = `Usage: sluice <command> [options]

Commands:
  serve             run the service (all roles in one process, or those --roles names)
  migrate           apply pending database migrations and exit
  validate-config   check the service, tenant and project configuration; non-zero exit on errors
                    (--decrypt-secrets: also decrypt every secret with its project's key)
  reconfigure       ask the running service to reload tenant configuration (--tenant T for one tenant,
                    --smart for the tenants whose tenant-file entry changed)
  token create      mint an HS256 admin token (sluice token --help)
  encrypt           encrypt a secret for a project (sluice encrypt --help)
  delete-oidc-signing-keys ALGORITHM
                    delete the OIDC signing keys of ALGORITHM (RS256)
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
  token: (argv, deps) => authCommands().tokenCommand(argv, deps),
  encrypt: (argv, deps) => authCommands().encryptCommand(argv, deps),
  'delete-oidc-signing-keys': (argv, deps) => oidcCommands().deleteOidcSigningKeysCommand(argv, deps),
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
        smart: { type: 'boolean' },
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
    if (err instanceof configModule().ServiceConfigError) {
      process.stderr.write(`sluice: invalid configuration:\n${err.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    throw err;
  }
  try {
    switch (command) {
      case 'serve':
        // The command line wins over the configuration's roles key.
        return await service().serve(
          roles === undefined ? config : { ...config, roles: ROLE_NAMES.filter((role) => roles.has(role)) },
        );
      case 'migrate':
        return await service().migrate(config);
      case 'validate-config':
        return await service().validate(config, {
          offline: parsed.values.offline === true,
          decryptSecrets: parsed.values['decrypt-secrets'] === true,
        });
      case 'reconfigure':
        if (parsed.values.smart === true && parsed.values.tenant !== undefined) {
          process.stderr.write('sluice: reconfigure takes --smart or --tenant, not both\n');
          return 2;
        }
        return await service().reconfigure(config, parsed.values.tenant, parsed.values.smart === true);
      default:
        process.stderr.write(`sluice: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    return service().reportOperatorError(err);
  }
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
    return await command(argv, { io, loadConfig: readConfig, openDatabase: (config) => service().databaseFor(config) });
  } catch (err) {
    if (err instanceof configModule().ServiceConfigError) {
      process.stderr.write(`sluice: invalid configuration:\n${err.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    return service().reportOperatorError(err);
  }
}

function readConfig(file: string | undefined): ServiceConfig {
  const env = { PORT: process.env.PORT, DATABASE_URL: process.env.DATABASE_URL };
  const path = file ?? process.env.SLUICE_CONFIG;
  return path ? configModule().loadServiceConfig(path, env) : configModule().defaultServiceConfig(process.cwd(), env);
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
