/**
 * The MQTT reporter over TLS (docs/reporters.md#mqtt) against a Mosquitto broker this test starts
 * on a free port (test/helpers/mosquitto-tls.ts: a generated CA, a client certificate required,
 * TLS 1.3 with one cipher): a connection with `caCerts`, `certfile`, `keyfile` and `ciphers`
 * publishes and a TLS subscriber receives the message; a CA that did not sign the broker's
 * certificate, a cipher the broker refuses, or no client certificate publish nothing. The
 * reference's rules on the keys: the TLS keys need `caCerts`, certfile and keyfile go together.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { MqttReporter, mqttConnection } from '../../../src/drivers/mqtt/index';
import { ReportNotSent, type ItemReport } from '../../../src/engine/ports/reporter';
import { refChange } from '../../../src/model/changes';
import { startTlsBroker, tlsFiles, type TlsBroker } from '../../helpers/mosquitto-tls';

jest.setTimeout(120_000);

function report(topic: string): ItemReport {
  return {
    tenant: 'acme',
    pipeline: 'post',
    phase: 'success',
    change: { ...refChange('example.com/org/app', 'refs/heads/main', null, 'a'.repeat(40)) },
    buildsetUuid: 'b'.repeat(32),
    message: 'Build succeeded.',
    result: 'SUCCESS',
    jobs: [],
    reporters: [{ connection: 'tls', driver: 'mqtt', options: { topic, qos: 1 } }],
  };
}

describe('MQTT over TLS', () => {
  let broker: TlsBroker;
  let subscriber: MqttClient;
  const received: Array<{ topic: string; message: Record<string, unknown> }> = [];

  beforeAll(async () => {
    broker = await startTlsBroker();
    subscriber = await mqtt.connectAsync(`mqtts://127.0.0.1:${broker.port}`, tlsFiles(broker.files));
    subscriber.on('message', (topic, payload) => received.push({ topic, message: JSON.parse(payload.toString()) }));
    await subscriber.subscribeAsync('tls/#', { qos: 1 });
  });

  afterAll(async () => {
    await subscriber?.endAsync();
    await broker?.stop();
  });

  /** Publish one report through a reporter of these connection settings; what it logged. */
  /** How the last publish ended: null when every report was sent, else its rejection. */
  let refusal: unknown = null;
  const publish = async (settings: Record<string, unknown>, topic: string) => {
    const logged: string[] = [];
    const log = {
      info: () => undefined,
      warn: (fields: unknown, message?: string) => logged.push(`${message ?? ''} ${JSON.stringify(fields)}`),
      error: (fields: unknown, message: string) => logged.push(`${message} ${JSON.stringify(fields)}`),
    };
    const connection = mqttConnection.parse({ driver: 'mqtt', server: '127.0.0.1', port: broker.port, ...settings });
    const reporter = new MqttReporter(
      new Map([['tls', connection]]),
      (_tenant, uuid) => `https://sluice.example.com/t/acme/build/${uuid}`,
      log,
      () => new Date(),
      4000,
    );
    refusal = await reporter.report(report(topic)).then(
      () => null,
      (error: unknown) => error,
    );
    await reporter.close();
    return logged;
  };

  const files = () => broker.files;

  it('publishes with the CA, the client certificate and the broker cipher', async () => {
    const { ca, cert, key } = files();
    const logged = await publish({ caCerts: ca, certfile: cert, keyfile: key, ciphers: broker.cipher }, 'tls/good');
    expect(logged).toEqual([]);
    expect(refusal).toBeNull();
    const deadline = Date.now() + 10_000;
    while (!received.some((r) => r.topic === 'tls/good') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const got = received.find((r) => r.topic === 'tls/good');
    expect(got?.message).toMatchObject({ action: 'success', tenant: 'acme', message: 'Build succeeded.' });
  });

  it.each([
    [
      'a CA that did not sign the broker certificate',
      () => ({ caCerts: files().otherCa, certfile: files().cert, keyfile: files().key }),
      /certificate/i,
    ],
    [
      'a cipher the broker refuses',
      () => ({ caCerts: files().ca, certfile: files().cert, keyfile: files().key, ciphers: 'TLS_AES_128_GCM_SHA256' }),
      /handshake|cipher|alert/i,
    ],
    ['no client certificate', () => ({ caCerts: files().ca }), /certificate|ECONNRESET|socket|closed/i],
  ])('publishes nothing with %s', async (_name, settings, reason) => {
    const topic = `tls/refused-${received.length}-${Date.now()}`;
    const logged = await publish(settings(), topic);
    expect(logged.some((line) => line.startsWith('mqtt report not sent'))).toBe(true);
    expect(refusal).toBeInstanceOf(ReportNotSent);
    expect(String(refusal)).toContain(`mqtt report to ${topic} (tls): `);
    expect(logged.join('\n')).toMatch(reason);
    expect(received.some((r) => r.topic === topic)).toBe(false);
  });

  it("refuses the reference's invalid TLS settings", () => {
    const parse = (extra: Record<string, unknown>) => mqttConnection.safeParse({ driver: 'mqtt', ...extra });
    expect(parse({ ciphers: 'HIGH' }).error?.issues[0]?.message).toBe('MQTT TLS configuration requires "caCerts"');
    expect(parse({ certfile: '/c', keyfile: '/k' }).error?.issues[0]?.message).toBe(
      'MQTT TLS configuration requires "caCerts"',
    );
    expect(parse({ caCerts: '/ca', certfile: '/c' }).error?.issues[0]?.message).toBe(
      'give both "certfile" and "keyfile", or neither',
    );
    expect(parse({ caCerts: '/ca', ciphers: 'HIGH' }).success).toBe(true);
  });
});
