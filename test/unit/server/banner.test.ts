import type os from 'node:os';
import { startBanner } from '../../../src/server/banner';

const interfaces = {
  lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
  eth0: [
    { address: '10.1.2.3', family: 'IPv4', internal: false },
    { address: 'fe80::1', family: 'IPv6', internal: false },
    { address: '2001:db8::5', family: 'IPv6', internal: false },
  ],
} as unknown as ReturnType<typeof os.networkInterfaces>;
const noPublicUrl = { api: { restShape: 'current' as const }, logs: {} };

describe('start banner', () => {
  it('on every interface: loopback URLs that work here and the addresses other machines can use', () => {
    const text = startBanner(noPublicUrl, { address: '0.0.0.0', port: 9123 }, interfaces);
    expect(text).toContain('listening on port 9123 of every interface');
    expect(text).toContain('GraphQL (and GraphiQL in a browser): http://127.0.0.1:9123/graphql');
    expect(text).toContain('Health:                              http://127.0.0.1:9123/health/ready');
    expect(text).toContain('Build logs:                          http://127.0.0.1:9123/logs/');
    expect(text).toContain('From other machines:                 http://10.1.2.3:9123\n');
  });

  it('names the dashboard when the built-in one is served', () => {
    expect(
      startBanner({ ...noPublicUrl, web: { dashboard: true } }, { address: '127.0.0.1', port: 9000 }, interfaces),
    ).toContain('Dashboard:                           http://127.0.0.1:9000/\n');
    expect(
      startBanner({ ...noPublicUrl, web: { dashboard: false } }, { address: '127.0.0.1', port: 9000 }, interfaces),
    ).not.toContain('Dashboard:');
  });

  it('names the roles of a process that runs some, and lists health and metrics only without the api role', () => {
    const api = startBanner({ ...noPublicUrl, roles: ['api'] }, { address: '127.0.0.1', port: 9000 }, interfaces);
    expect(api).toMatch(/Sluice \S+ is running \(roles api\), listening on http:\/\/127\.0\.0\.1:9000\./);
    expect(api).toContain('GraphQL (and GraphiQL in a browser): http://127.0.0.1:9000/graphql');
    const worker = startBanner(
      { ...noPublicUrl, roles: ['executor', 'scheduler'] },
      { address: '127.0.0.1', port: 9001 },
      interfaces,
    );
    expect(worker.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Sluice \S+ is running \(roles scheduler,executor\), listening on http:\/\/127\.0\.0\.1:9001\.$/,
      ),
      '  Health:                              http://127.0.0.1:9001/health/ready',
      '  Metrics:                             http://127.0.0.1:9001/metrics',
    ]);
    const all = startBanner(
      { ...noPublicUrl, roles: ['api', 'scheduler', 'executor', 'launcher'] },
      { address: '127.0.0.1', port: 9000 },
      interfaces,
    );
    expect(all).toMatch(/is running, listening on/);
  });

  it('on IPv6 wildcard lists IPv6 addresses too (not link-local ones)', () => {
    const text = startBanner(noPublicUrl, { address: '::', port: 80 }, interfaces);
    expect(text).toContain('From other machines:                 http://10.1.2.3:80, http://[2001:db8::5]:80\n');
  });

  it('on one address: that address only', () => {
    const text = startBanner(noPublicUrl, { address: '127.0.0.1', port: 9000 }, interfaces);
    expect(text).toContain('listening on http://127.0.0.1:9000.');
    expect(text).not.toContain('other machines');
  });

  it('names api.publicUrl and an explicit logs.url', () => {
    const text = startBanner(
      {
        api: { restShape: 'current', publicUrl: 'https://ci.example.com' },
        logs: { url: 'https://logs.example.com/' },
      },
      { address: '0.0.0.0', port: 9000 },
      interfaces,
    );
    expect(text).toContain('Build logs:                          https://logs.example.com/');
    expect(text).toContain('Public address (api.publicUrl):      https://ci.example.com');
    expect(text).not.toContain('other machines');
  });
});
