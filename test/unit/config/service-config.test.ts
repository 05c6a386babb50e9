import path from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import {
  defaultServiceConfig,
  loadServiceConfig,
  parseServiceConfig,
  ServiceConfigError,
} from '../../../src/config/service';

function problems(text: string, env = {}): string[] {
  try {
    parseServiceConfig(text, '/etc/sluice/sluice.yaml', env);
  } catch (err) {
    if (err instanceof ServiceConfigError) {
      return err.problems;
    }
    throw err;
  }
  throw new Error('expected a configuration error');
}

describe('service configuration', () => {
  it('applies defaults for an empty file', () => {
    const config = parseServiceConfig('', '/etc/sluice/sluice.yaml');
    expect(config.listen).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(config.database.url).toBeUndefined();
    expect(config.dataDir).toBe('/etc/sluice/data');
    expect(config.logs.dir).toBe('/etc/sluice/data/logs');
    expect(config.api.restShape).toBe('current');
    expect(config.connections).toEqual({});
    expect(config.shutdownTimeout).toBe(10);
    expect(config.source).toBe('/etc/sluice/sluice.yaml');
  });

  it('parses every documented key', () => {
    const config = parseServiceConfig(
      `
listen: {host: 127.0.0.1, port: 8080}
database: {url: postgres://db/sluice}
dataDir: /var/lib/sluice
tenantConfig: tenants/main.yaml
connections:
  review:
    driver: git
    baseurl: repos
    pollInterval: 5
    canonicalHostname: git.example.org
    seedFrom: seed
    changeUrlTemplate: "https://review.example.org/c/{project.name}/+/{change.number}"
    branchUrlTemplate: "https://git.example.org/{project.name}/log/?h={branch}"
    gitwebUrlTemplate: "{baseurl}/gitweb?p={project.name}.git;a=commitdiff;h={sha}"
  remote:
    driver: git
    baseurl: https://git.example.org/
  timer:
    driver: timer
api: {restShape: earlier, publicUrl: "https://ci.example.org"}
logs: {dir: /srv/logs, url: "https://ci.example.org/logs/"}
shutdownTimeout: 3
auth: {}
executor: {}
redis: {url: "redis://127.0.0.1:6379"}
`,
      '/etc/sluice/sluice.yaml',
    );
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(config.database.url).toBe('postgres://db/sluice');
    expect(config.dataDir).toBe('/var/lib/sluice');
    expect(config.tenantConfig).toBe('/etc/sluice/tenants/main.yaml');
    expect(config.connections.review).toEqual({
      driver: 'git',
      baseurl: '/etc/sluice/repos',
      pollInterval: 5,
      canonicalHostname: 'git.example.org',
      seedFrom: '/etc/sluice/seed',
      changeUrlTemplate: 'https://review.example.org/c/{project.name}/+/{change.number}',
      branchUrlTemplate: 'https://git.example.org/{project.name}/log/?h={branch}',
      gitwebUrlTemplate: '{baseurl}/gitweb?p={project.name}.git;a=commitdiff;h={sha}',
    });
    expect(config.connections.remote).toMatchObject({
      driver: 'git',
      baseurl: 'https://git.example.org/',
      pollInterval: 60,
    });
    expect(config.connections.timer).toEqual({ driver: 'timer' });
    expect(config.api).toEqual({ restShape: 'earlier', publicUrl: 'https://ci.example.org' });
    expect(config.logs).toEqual({ dir: '/srv/logs', url: 'https://ci.example.org/logs/' });
    expect(config.shutdownTimeout).toBe(3);
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', channelPrefix: 'sluice:' });
  });

  it('reads the roles and the executor section, with their defaults', () => {
    const defaults = parseServiceConfig('', '/etc/sluice/sluice.yaml');
    expect(defaults.roles).toEqual(['api', 'scheduler', 'executor', 'launcher']);
    // No workRoot: the executor uses <dataDir>/executor/builds with the dataDir it starts with.
    expect(defaults.executor).toEqual({
      slots: 2,
      keepWorkspaces: false,
      pollInterval: 1,
      killGracePeriod: 0.5,
      sandbox: 'bwrap',
    });
    const config = parseServiceConfig(
      'roles: [executor, api]\nexecutor: {slots: 8, workRoot: work, keepWorkspaces: true, pollInterval: 0.2, killGracePeriod: 5, sandbox: none}\n',
      '/etc/sluice/sluice.yaml',
    );
    expect(config.roles).toEqual(['executor', 'api']);
    expect(config.executor).toEqual({
      slots: 8,
      workRoot: '/etc/sluice/work',
      keepWorkspaces: true,
      pollInterval: 0.2,
      killGracePeriod: 5,
      sandbox: 'none',
    });
    expect(() => parseServiceConfig('executor: {sandbox: firejail}\n', '/etc/sluice/sluice.yaml')).toThrow(/sandbox/);
  });

  it('reads component heartbeats and metrics, and refuses an expiry shorter than two heartbeats', () => {
    const defaults = parseServiceConfig('', '/etc/sluice/sluice.yaml');
    expect(defaults.components).toEqual({ heartbeatInterval: 30, expiry: 90 });
    expect(defaults.metrics).toEqual({ enabled: true });
    const config = parseServiceConfig(
      'components: {heartbeatInterval: 5, expiry: 12.5}\nmetrics: {enabled: false}\n',
      '/etc/sluice/sluice.yaml',
    );
    expect(config.components).toEqual({ heartbeatInterval: 5, expiry: 12.5 });
    expect(config.metrics.enabled).toBe(false);
    expect(problems('components: {heartbeatInterval: 30, expiry: 45}\n')).toEqual([
      expect.stringContaining('components.expiry: must be at least twice heartbeatInterval'),
    ]);
    expect(problems('metrics: {enabled: true, path: /m}\n')).toEqual([
      expect.stringContaining('unknown key "metrics.path"'),
    ]);
  });

  it('lets PORT and DATABASE_URL override the file', () => {
    const config = parseServiceConfig('listen: {port: 1}\ndatabase: {url: postgres://a/b}', 'x.yaml', {
      PORT: '7000',
      DATABASE_URL: 'postgres://c/d',
    });
    expect(config.listen.port).toBe(7000);
    expect(config.database.url).toBe('postgres://c/d');
  });

  it.each([
    ['foo: 1', '/etc/sluice/sluice.yaml:1: unknown key "foo"'],
    ['listen:\n  port: "x"', '/etc/sluice/sluice.yaml:2: listen.port: Invalid input: expected number, received string'],
    ['listen:\n  port: 70000', '/etc/sluice/sluice.yaml:2: listen.port: Too big: expected number to be <=65535'],
    ['listen:\n  hots: a', '/etc/sluice/sluice.yaml:2: unknown key "listen.hots"'],
    ['listen: [1]', '/etc/sluice/sluice.yaml:1: listen: Invalid input: expected object, received array'],
    ['database: {url: 5}', '/etc/sluice/sluice.yaml:1: database.url: Invalid input: expected string, received number'],
    [
      'connections:\n  a:\n    driver: nosuch',
      '/etc/sluice/sluice.yaml:3: connections.a.driver: unknown connection driver (supported: git, github, gerrit, timer, smtp, mqtt, gitlab, local, static)',
    ],
    ['connections:\n  a:\n    driver: git', '/etc/sluice/sluice.yaml:2: connections.a.baseurl: is required'],
    [
      'connections:\n  hub:\n    driver: github\n    appId: 12\n    webhookToken: s',
      '/etc/sluice/sluice.yaml:4: connections.hub.appId: give both "appId" and "appKeyFile", or neither',
    ],
    [
      'connections:\n  hub:\n    driver: github\n    apiToken: t',
      '/etc/sluice/sluice.yaml:2: connections.hub.webhookToken: give exactly one of "webhookToken" and "webhookTokenFile"',
    ],
    [
      'connections:\n  lab:\n    driver: gitlab\n    webhookToken: s',
      '/etc/sluice/sluice.yaml:2: connections.lab.apiToken: is required',
    ],
    [
      'connections:\n  lab:\n    driver: gitlab\n    apiToken: t\n    webhookToken: s\n    baseurl: not a url',
      '/etc/sluice/sluice.yaml:6: connections.lab.baseurl: Invalid URL',
    ],
    [
      'connections:\n  lab:\n    driver: gitlab\n    apiToken: t\n    webhookToken: s\n    keepalive: -1',
      '/etc/sluice/sluice.yaml:6: connections.lab.keepalive: Too small: expected number to be >=0',
    ],
    [
      'connections:\n  lab:\n    driver: gitlab\n    apiToken: t\n    webhookToken: s\n    api_token: t',
      '/etc/sluice/sluice.yaml:6: unknown key "connections.lab.api_token"',
    ],
    [
      'connections:\n  a:\n    driver: git\n    baseurl: r\n    extra: 1',
      '/etc/sluice/sluice.yaml:5: unknown key "connections.a.extra"',
    ],
    [
      'connections:\n  a:\n    driver: git\n    baseurl: r\n    changeUrlTemplate: "https://x/{change.id}"',
      '/etc/sluice/sluice.yaml:5: connections.a.changeUrlTemplate: unknown placeholder {change.id} (known: {baseurl}, {project.name}, {project.canonical_name}, {change.number}, {change.patchset}, {branch}, {ref}, {sha})',
    ],
    [
      'connections:\n  a:\n    driver: git\n    baseurl: r\n    gitwebUrlTemplate: "https://x/{sha"',
      '/etc/sluice/sluice.yaml:5: connections.a.gitwebUrlTemplate: unmatched "{" (write "{{" for a literal brace)',
    ],
    [
      'connections:\n  "bad name":\n    driver: timer',
      '/etc/sluice/sluice.yaml:2: connections.bad name: connection names use letters, digits, _ . -',
    ],
    [
      'api:\n  restShape: old',
      '/etc/sluice/sluice.yaml:2: api.restShape: Invalid option: expected one of "current"|"earlier"',
    ],
    ['api:\n  publicUrl: not a url', '/etc/sluice/sluice.yaml:2: api.publicUrl: Invalid URL'],
    ['logs:\n  dir: 3', '/etc/sluice/sluice.yaml:2: logs.dir: Invalid input: expected string, received number'],
    ['shutdownTimeout: -1', '/etc/sluice/sluice.yaml:1: shutdownTimeout: Too small: expected number to be >0'],
    ['dataDir: ""', '/etc/sluice/sluice.yaml:1: dataDir: Too small: expected string to have >=1 characters'],
    ['tenantConfig: [a]', '/etc/sluice/sluice.yaml:1: tenantConfig: Invalid input: expected string, received array'],
    ['redis:\n  url: http://x', '/etc/sluice/sluice.yaml:2: redis.url: must be a redis:// or rediss:// URL'],
    ['redis:\n  host: x', '/etc/sluice/sluice.yaml:2: unknown key "redis.host"'],
    ['executor:\n  slots: 0', '/etc/sluice/sluice.yaml:2: executor.slots: Too small: expected number to be >=1'],
    [
      'executor:\n  slots: 1.5',
      '/etc/sluice/sluice.yaml:2: executor.slots: Invalid input: expected int, received number',
    ],
    ['executor:\n  workers: 2', '/etc/sluice/sluice.yaml:2: unknown key "executor.workers"'],
    ['executor: 3', '/etc/sluice/sluice.yaml:1: executor: Invalid input: expected object, received number'],
    [
      'roles: [api, sheduler]',
      '/etc/sluice/sluice.yaml:1: roles.1: Invalid option: expected one of "api"|"scheduler"|"executor"|"launcher"',
    ],
    ['roles: []', '/etc/sluice/sluice.yaml:1: roles: name at least one role'],
    ['roles: [api, api]', '/etc/sluice/sluice.yaml:1: roles: a role is named twice'],
    [
      'redis: {url: "redis://x", channelPrefix: "a b"}',
      '/etc/sluice/sluice.yaml:1: redis.channelPrefix: letters, digits, _ . : - (at most 64)',
    ],
    ['auth: 3', '/etc/sluice/sluice.yaml:1: auth: the "auth" section must be a mapping'],
  ])('reports %j as a readable error naming the key and file', (text, expected) => {
    expect(problems(text)).toContain(expected);
  });

  it('reports YAML syntax errors and duplicate keys', () => {
    expect(problems('a: [')[0]).toMatch(/^\/etc\/sluice\/sluice\.yaml: YAML error: /);
    expect(problems('dataDir: a\ndataDir: b')[0]).toMatch(/YAML error: Map keys must be unique/);
  });

  it('rejects a bad PORT environment value', () => {
    expect(problems('', { PORT: 'abc' })).toEqual([
      'environment: PORT must be an integer between 0 and 65535, got "abc"',
    ]);
  });

  it('reports every problem, not just the first', () => {
    expect(problems('foo: 1\nlisten: {port: x}')).toHaveLength(2);
  });

  it('reads a file and names it when missing', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-config-'));
    try {
      const file = path.join(dir, 'sluice.yaml');
      writeFileSync(file, 'listen: {port: 1234}\n');
      expect(loadServiceConfig(file).listen.port).toBe(1234);
      expect(() => loadServiceConfig(path.join(dir, 'missing.yaml'))).toThrow(
        /missing\.yaml: cannot read the configuration file \(ENOENT\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds defaults relative to a working directory', () => {
    const config = defaultServiceConfig('/srv/sluice', { DATABASE_URL: 'postgres://x/y' });
    expect(config.dataDir).toBe('/srv/sluice/data');
    expect(config.database.url).toBe('postgres://x/y');
    expect(config.tenantConfig).toBeUndefined();
  });
});
