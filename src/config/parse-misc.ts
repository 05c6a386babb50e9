/**
 * `semaphore`, `queue`, `secret` and `pragma` objects (docs/project-configuration.md#semaphores-queues-and-pragmas,
 * docs/security.md#secrets).
 */
import { ConfigObjectError, ErrorName } from './config-error';
import type { Queue, Secret, Semaphore } from './layout';
import type { FilePragma, ParseContext } from './parse-context';
import { compileRegex, readRegexList, warnDeprecatedRegexes } from './regex';
import { checkKeys, optBool, optInt, optMap, optString, requireMap, reqString, toPlainData } from './schema-helpers';

export function parseSemaphore(body: unknown, ctx: ParseContext): Semaphore {
  const map = requireMap(body, 'semaphore');
  checkKeys(map, new Set(['name', 'max']), ['name']);
  return {
    name: reqString(map, 'name'),
    max: optInt(map, 'max', 1) ?? 1,
    global: false,
    sourceContext: ctx.sourceContext,
  };
}

export function parseQueue(body: unknown, ctx: ParseContext): Queue {
  const map = requireMap(body, 'queue');
  checkKeys(map, new Set(['name', 'per-branch', 'allow-circular-dependencies', 'dependencies-by-topic']), ['name']);
  const queue: Queue = {
    name: reqString(map, 'name'),
    perBranch: optBool(map, 'per-branch') ?? false,
    allowCircularDependencies: optBool(map, 'allow-circular-dependencies') ?? false,
    dependenciesByTopic: optBool(map, 'dependencies-by-topic') ?? false,
    sourceContext: ctx.sourceContext,
  };
  if (queue.dependenciesByTopic && !queue.allowCircularDependencies) {
    throw new ConfigObjectError(
      'The "dependencies-by-topic" setting requires "allow-circular-dependencies"',
      ErrorName.unknown,
      'dependencies-by-topic',
    );
  }
  return queue;
}

const OIDC_ALGORITHMS = ['RS256'];

export function parseSecret(body: unknown, ctx: ParseContext): Secret {
  const map = requireMap(body, 'secret');
  checkKeys(map, new Set(['name', 'data', 'oidc']), ['name']);
  const name = reqString(map, 'name');
  const hasData = map.data !== undefined;
  const hasOidc = 'oidc' in map;
  if (hasData === hasOidc) {
    throw new ConfigObjectError(
      'Exactly one of "data" or "oidc" is required in a secret',
      ErrorName.syntax,
      hasData ? 'oidc' : 'data',
    );
  }
  if (hasData) {
    const data = optMap(map, 'data');
    if (data === undefined) {
      throw new ConfigObjectError(
        `expected a dictionary for dictionary value @ data['data']`,
        ErrorName.syntax,
        'data',
      );
    }
    return { name, sourceContext: ctx.sourceContext, data: toPlainData(data) as Record<string, unknown> };
  }
  const oidc = map.oidc === null ? {} : requireMap(map.oidc, 'oidc');
  checkKeys(oidc, new Set(['ttl', 'iss', 'algorithm', 'claims']), [], "data['oidc']");
  // A secret without ttl gets the tenant's default-oidc-ttl, which must also be within the maximum.
  const ttl = optInt(oidc, 'ttl', 1) ?? ctx.tenant.defaultOidcTtl;
  if (ttl > ctx.tenant.maxOidcTtl) {
    throw new ConfigObjectError(
      `The OIDC ttl ${ttl} exceeds tenant max-oidc-ttl ${ctx.tenant.maxOidcTtl}.`,
      ErrorName.maxOidcTtl,
      'oidc',
    );
  }
  const iss = optString(oidc, 'iss');
  if (iss !== undefined && !ctx.tenant.allowedOidcIssuers.includes(iss)) {
    throw new ConfigObjectError(
      `The OIDC issuer "${iss}" is not allowed in this tenant.`,
      ErrorName.oidcIssuerNotAllowed,
      'oidc',
    );
  }
  // Without one, the executor signs with `oidc.defaultSigningAlgorithm` (docs/security.md#oidc-tokens).
  const algorithm = optString(oidc, 'algorithm');
  if (algorithm !== undefined && !OIDC_ALGORITHMS.includes(algorithm)) {
    throw new ConfigObjectError(`The OIDC algorithm "${algorithm}" is not supported.`, ErrorName.unknown, 'oidc');
  }
  return {
    name,
    sourceContext: ctx.sourceContext,
    oidc: { ttl, iss, algorithm, claims: toPlainData(optMap(oidc, 'claims') ?? {}) as Record<string, unknown> },
  };
}

/** Parse a `pragma`; deprecated regexes of `implied-branches` add warnings to `warnings`. */
export function parsePragma(body: unknown, warnings: ConfigObjectError[]): FilePragma {
  const map = requireMap(body, 'pragma');
  checkKeys(map, new Set(['implied-branch-matchers', 'implied-branches']));
  const pragma: FilePragma = { impliedBranchMatchers: optBool(map, 'implied-branch-matchers') };
  if (map['implied-branches'] !== undefined && map['implied-branches'] !== null) {
    pragma.impliedBranches = readRegexList(map['implied-branches'], 'implied-branches');
    pragma.impliedBranches.forEach((r) => compileRegex(r, 'implied-branches'));
    warnDeprecatedRegexes(pragma.impliedBranches, 'implied-branches', warnings);
  }
  return pragma;
}
