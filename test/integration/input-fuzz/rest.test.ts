/**
 * Fuzz of every REST route (docs/rest.md#input-rules): each path x method x shape of the route
 * table in rest-compat/ (so a new route is fuzzed without touching this file) gets requests with
 * hostile path segments, query parameters and JSON bodies, with and without an admin token, plus
 * methods the route does not have. Nothing may answer 5xx. The seed is fixed: every run sends the
 * same requests, and a failure prints them.
 */
import { REST_ROUTES } from '../../../rest-compat';
import type { HttpMethod, RestEndpoint, RestRoute } from '../../../rest-compat/route';
import { SHAPES } from '../../helpers/openapi-documents';
import { adminToken, liveTestConfig } from '../../helpers/live';
import { useRestContract } from '../../helpers/rest-contract';
import {
  CONTROL_STRINGS,
  HOSTILE_INTEGERS,
  Random,
  hostileString,
  nestedJsonText,
  pathSegment,
  randomJson,
} from '../../helpers/fuzz';

const SEED = 20_2604;
/** Requests per path x method x shape. */
const ROUNDS = 12;
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND'];

/** Plausible values of each path parameter, so that some requests get past the lookups. */
const PLAUSIBLE: Record<string, readonly string[]> = {
  project_name: ['org/project1', 'org/nope'],
  pipeline_name: ['gate', 'check'],
  branch_name: ['master'],
  job_name: ['project-test', 'base'],
  change: ['1,1', '2,1', '1'],
  request_id: ['1', '0000000001'],
};
const TENANT = 'tenant-one';

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

describe('REST fuzz: no input answers 5xx', () => {
  const config = liveTestConfig();
  const contract = useRestContract({
    config: {
      auth: config.auth,
      // Many control calls in a row: lift the per-token rate limit (its own test is in auth/wiring-graphql).
      graphql: { ...config.graphql, controlRateLimit: { burst: 100_000, perMinute: 100_000 } },
    },
  });
  const admin = adminToken(TENANT);

  function pathFor(random: Random, route: RestRoute): string {
    const path = route.pattern.replace(/\{([a-z_]+)(?::\.\*)?\}/g, (_all, name: string) => {
      if (name === 'tenant_name') {
        return random.chance(0.85) ? TENANT : pathSegment(random, random.pick(['*', 'nobody', ...CONTROL_STRINGS]));
      }
      if (random.chance(0.3)) {
        const uuids = [contract.uuids.buildOne, contract.uuids.buildsetOne];
        return pathSegment(random, random.pick(PLAUSIBLE[name] ?? (name === 'uuid' ? uuids : ['x'])));
      }
      return pathSegment(random, random.chance(0.3) ? random.pick(HOSTILE_INTEGERS) : hostileString(random));
    });
    return path === '' ? '/api' : `/api/${path}`;
  }

  function queryFor(random: Random, endpoint: RestEndpoint | undefined, shape: string): string {
    const params = new URLSearchParams();
    const known = Object.keys(endpoint?.query?.[shape as 'current'] ?? {});
    for (const name of random.subset(known, 0.3)) {
      const value = random.chance(0.4) ? random.pick(HOSTILE_INTEGERS) : hostileString(random);
      params.append(name, value);
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

  function bodyFor(random: Random, endpoint: RestEndpoint | undefined): { body?: string; contentType?: string } {
    const roll = random.below(10);
    if (roll === 0) {
      return { body: random.pick(['', '{', 'null', '[]', '"x"', '1', 'pipeline=gate']), contentType: 'application/json' };
    }
    if (roll === 1) {
      return { body: '{"pipeline": "gate"}', contentType: random.pick(['text/plain', 'application/x-www-form-urlencoded']) };
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

  function plausibleBodyValue(random: Random, key: string): unknown {
    switch (key) {
      case 'count':
      case 'node_hold_expiration':
        return Number(random.pick(HOSTILE_INTEGERS));
      case 'changes':
        return [random.pick(['1,1', '2,1', ...CONTROL_STRINGS])];
      case 'pipeline':
        return random.pick(['gate', ...CONTROL_STRINGS]);
      case 'job':
        return random.pick(['unit', ...CONTROL_STRINGS]);
      default:
        return random.chance(0.5) ? random.pick(CONTROL_STRINGS) : hostileString(random);
    }
  }

  function requestFor(random: Random, route: RestRoute, method: string, shape: string): FuzzRequest {
    const endpoint = route.endpoints[method as HttpMethod];
    const headers: Record<string, string> = { 'X-Sluice-Api-Shape': random.chance(0.03) ? 'sideways' : shape };
    const token = random.below(10);
    if (token < 6) {
      headers.Authorization = `Bearer ${admin}`;
    } else if (token === 6) {
      headers.Authorization = `Bearer ${adminToken('*')}`;
    } else if (token === 7) {
      headers.Authorization = random.pick(['Bearer \u0001', 'Bearer x.y.z', 'Basic Zm9vOmJhcg==']).replace(/[^\x20-\x7e]/g, '');
    }
    const request: FuzzRequest = {
      method,
      path: pathFor(random, route) + queryFor(random, endpoint, shape),
      headers,
    };
    if (method !== 'GET' && method !== 'HEAD' && (endpoint?.body !== undefined || random.chance(0.2))) {
      const { body, contentType } = bodyFor(random, endpoint);
      request.body = body;
      if (contentType !== undefined) {
        headers['Content-Type'] = contentType;
      }
    }
    return request;
  }

  it('sends every route hostile input in both shapes', async () => {
    const random = new Random(SEED);
    const requests: FuzzRequest[] = [];
    for (const route of REST_ROUTES) {
      for (const shape of SHAPES) {
        for (let round = 0; round < ROUNDS; round++) {
          for (const method of Object.keys(route.endpoints)) {
            requests.push(requestFor(random, route, method, shape));
          }
          if (round % 4 === 0) {
            requests.push(requestFor(random, route, random.pick(OTHER_METHODS), shape));
          }
        }
      }
    }
    const failures: string[] = [];
    for (const request of requests) {
      const res = await fetch(`${contract.server.url}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const text = await res.text();
      if (res.status >= 500) {
        failures.push(
          `${request.method} ${request.path.slice(0, 300)} body=${(request.body ?? '').slice(0, 200)} -> ${res.status} ${text.slice(0, 200)}`,
        );
      }
    }
    expect({ requests: requests.length, failures }).toEqual({ requests: requests.length, failures: [] });
  }, 120_000);
});
