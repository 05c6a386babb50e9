import path from 'node:path';
import { parseServiceConfig } from '../../../src/config/service';
import { createExecutorServices } from '../../../src/executor/executor-services';
import { gitConnectionsFromConfig } from '../../../src/executor/repo-cache';
import { createGitPollers } from '../../../src/drivers/git/pollers';
import { type BuildRequestRepository } from '../../../src/store/repositories/build-requests';

const CONFIG = `
dataDir: /srv/sluice
connections:
  local:
    driver: git
    baseurl: repos
    canonicalHostname: git.example.local
    pollInterval: 7
  remote:
    driver: git
    baseurl: https://git.example.com/mirror/
  timer:
    driver: timer
logs:
  url: http://localhost:9000/logs/
`;

describe('executor wiring from the service configuration', () => {
  const config = parseServiceConfig(CONFIG, '/etc/sluice/sluice.yaml');

  it('knows every git connection with its canonical host name', () => {
    expect(gitConnectionsFromConfig(config)).toEqual({
      local: { baseurl: '/etc/sluice/repos', canonicalHostname: 'git.example.local' },
      remote: { baseurl: 'https://git.example.com/mirror/', canonicalHostname: 'remote' },
    });
  });

  it('keeps executor state under <dataDir>/executor and logs in logs.dir', () => {
    const services = createExecutorServices(config, {
      repository: {} as BuildRequestRepository,
      environment: { PATH: '/bin', DATABASE_URL: 'x' },
    });
    expect(services.cache.root).toBe(path.join('/srv/sluice', 'executor', 'cache'));
    expect(services.cache.origin('local', 'org/app')).toBe('/etc/sluice/repos/org/app.git');
    expect(services.cache.origin('remote', 'org/app')).toBe('https://git.example.com/mirror/org/app');
  });

  it('creates one poller per git connection', () => {
    const pollers = createGitPollers(config, { projects: () => [], onEvent: () => undefined });
    expect([...pollers.keys()]).toEqual(['local', 'remote']);
  });
});
