/**
 * Hostile requests for the REST fuzz (test/integration/input-fuzz.test.ts): for a route of the
 * table in rest-compat/, a path with hostile segments, query parameters of the endpoint (and
 * unknown ones), JSON bodies with the endpoint's keys (and random ones, deep ones, malformed ones),
 * wrong content types and tokens of every kind.
 */
import type { HttpMethod, RestEndpoint, RestRoute } from '../../rest-compat/route';
import {
  CONTROL_STRINGS,
  HOSTILE_INTEGERS,
  type Random,
  hostileString,
  nestedJsonText,
  pathSegment,
  randomJson,
} from './fuzz';

/** Methods a client may send to any route (fetch refuses CONNECT and TRACE). */
export const ANY_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND'];

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the fixture offers: its tenant, tokens and plausible values of path parameters. */
export interface RestFuzzTarget {
  tenant: string;
  /** Tokens to send, picked at random (tenant admin, root admin...). */
  tokens: string[];
  /** Plausible values of each path parameter, so that some requests get past the lookups. */
  plausible: Record<string, readonly string[]>;
}

function pathFor(random: Random, route: RestRoute, target: RestFuzzTarget): string {
  const path = route.pattern.replace(/\{([a-z_]+)(?::\.\*)?\}/g, (_all, name: string) => {
    if (name === 'tenant_name') {
      return random.chance(0.85)
        ? target.tenant
        : pathSegment(random, random.pick(['*', 'nobody', ...CONTROL_STRINGS]));
    }
    if (random.chance(0.3)) {
      return pathSegment(random, random.pick(target.plausible[name] ?? ['x']));
    }
    return pathSegment(random, random.chance(0.3) ? random.pick(HOSTILE_INTEGERS) : hostileString(random));
  });
  return path === '' ? '/api' : `/api/${path}`;
}

function queryFor(random: Random, endpoint: RestEndpoint | undefined, shape: string): string {
  const params = new URLSearchParams();
  const known = Object.keys(endpoint?.query?.[shape as 'current'] ?? {});
  for (const name of random.subset(known, 0.3)) {
    params.append(name, random.chance(0.4) ? random.pick(HOSTILE_INTEGERS) : hostileString(random));
    if (random.chance(0.1)) {
      params.append(name, hostileString(random));
    }
  }
  if (random.chance(0.05)) {
    params.append(hostileString(random), 'x');
  }
  let query = params.toString();
  if (random.chance(0.05)) {
    query += random.pick(['&%00=1', '&limit=%00', '&skip=%FF', '&=&&', '&project=%', '&change=1%00']);
  }
  return query === '' ? '' : `?${query}`;
}

function plausibleBodyValue(random: Random, key: string): unknown {
  switch (key) {
    case 'count':
    case 'node_hold_expiration':
      return Number(random.pick(HOSTILE_INTEGERS));
    case 'changes':
      return [random.pick(['1,1', '2,1', ...CONTROL_STRINGS])];
    case 'pipeline':
      return random.pick(['gate', 'check', ...CONTROL_STRINGS]);
    default:
      return random.chance(0.5) ? random.pick(CONTROL_STRINGS) : hostileString(random);
  }
}

function bodyFor(random: Random, endpoint: RestEndpoint | undefined): { body: string; contentType: string } {
  const roll = random.below(10);
  if (roll === 0) {
    return { body: random.pick(['', '{', 'null', '[]', '"x"', '1', 'pipeline=gate']), contentType: 'application/json' };
  }
  if (roll === 1) {
    return {
      body: '{"pipeline": "gate"}',
      contentType: random.pick(['text/plain', 'application/x-www-form-urlencoded']),
    };
  }
  if (roll === 2) {
    const depth = random.pick([100, 5000, 100_000]);
    return { body: nestedJsonText(depth, random.pick(['array', 'object'])), contentType: 'application/json' };
  }
  const properties = Object.keys((endpoint?.body?.schema.properties as Record<string, unknown> | undefined) ?? {});
  const body: Record<string, unknown> = {};
  for (const key of properties) {
    if (random.chance(0.7)) {
      body[key] = random.chance(0.5) ? randomJson(random) : plausibleBodyValue(random, key);
    }
  }
  if (random.chance(0.1)) {
    body[hostileString(random)] = randomJson(random);
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** One hostile request to `route` with `method` in `shape`. */
export function restRequest(
  random: Random,
  route: RestRoute,
  method: string,
  shape: string,
  target: RestFuzzTarget,
): FuzzRequest {
  const endpoint = route.endpoints[method as HttpMethod];
  const headers: Record<string, string> = { 'X-Sluice-Api-Shape': random.chance(0.03) ? 'sideways' : shape };
  const token = random.below(10);
  if (token < 7) {
    headers.Authorization = `Bearer ${random.pick(target.tokens)}`;
  } else if (token === 7) {
    headers.Authorization = random.pick(['Bearer', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==', 'Bearer \u00e9']);
  }
  const request: FuzzRequest = {
    method,
    path: pathFor(random, route, target) + queryFor(random, endpoint, shape),
    headers,
  };
  if (method !== 'GET' && method !== 'HEAD' && (endpoint?.body !== undefined || random.chance(0.2))) {
    const { body, contentType } = bodyFor(random, endpoint);
    request.body = body;
    headers['Content-Type'] = contentType;
  }
  return request;
}
