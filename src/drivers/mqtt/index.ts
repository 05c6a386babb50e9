/**
 * The MQTT driver (docs/reporters.md#mqtt): a reporter only. Each report of a pipeline phase
 * whose reporters name an `mqtt` connection is published as JSON (src/drivers/mqtt/message.ts)
 * to the reporter's `topic` with its `qos`, through the `mqtt` client.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { z } from 'zod';
import { sendFailure, throwIfNotSent, type ItemReport } from '../../engine/ports/reporter';
import type { Driver, DriverLog } from '../driver';
import { mqttMessage, mqttTopic } from './message';

/** A broker (docs/reporters.md#mqtt). */
export const mqttConnection = z
  .object({
    driver: z.literal('mqtt'),
    server: z.string().min(1).default('localhost'),
    port: z.number().int().min(1).max(65535).default(1883),
    /** Seconds between keepalive pings. */
    keepalive: z.number().int().min(0).default(60),
    clientId: z.string().min(1).optional(),
    user: z.string().min(1).optional(),
    password: z.string().optional(),
    transport: z.enum(['tcp', 'websockets']).default('tcp'),
    /** TLS: the CA certificates to trust, a client certificate with its key, the ciphers allowed (OpenSSL's list format). */
    caCerts: z.string().min(1).optional(),
    certfile: z.string().min(1).optional(),
    keyfile: z.string().min(1).optional(),
    ciphers: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    // The reference's rules: TLS is on with ca_certs, which the other TLS keys need.
    if (c.caCerts === undefined && (c.ciphers !== undefined || c.certfile !== undefined || c.keyfile !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'MQTT TLS configuration requires "caCerts"', path: ['caCerts'] });
    }
    if ((c.certfile === undefined) !== (c.keyfile === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give both "certfile" and "keyfile", or neither', path: ['certfile'] });
    }
  });

export type MqttConnectionConfig = z.infer<typeof mqttConnection>;

const FILE_KEYS = ['caCerts', 'certfile', 'keyfile'] as const;
const REPORTER_KEYS = ['topic', 'qos', 'include-returned-data'];
/** Longest wait for a publish (the broker's acknowledgement for qos 1 and 2). */
const PUBLISH_TIMEOUT_MS = 30_000;

/** The client's options: TLS ones go to `tls.connect` as they are (`ciphers` included). */
function clientOptions(settings: MqttConnectionConfig): {
  url: string;
  options: IClientOptions & Pick<ConnectionOptions, 'ciphers'>;
} {
  const tls = settings.caCerts !== undefined;
  const protocol = settings.transport === 'websockets' ? (tls ? 'wss' : 'ws') : tls ? 'mqtts' : 'mqtt';
  const file = (name: string | undefined) => (name === undefined ? undefined : readFileSync(name));
  return {
    url: `${protocol}://${settings.server}:${settings.port}`,
    options: {
      keepalive: settings.keepalive,
      clientId: settings.clientId,
      username: settings.user,
      password: settings.password,
      ca: file(settings.caCerts),
      cert: file(settings.certfile),
      key: file(settings.keyfile),
      ciphers: settings.ciphers,
      connectTimeout: PUBLISH_TIMEOUT_MS,
      reconnectPeriod: 1000,
    },
  };
}

/** Publishes reports to one driver's connections; a client per connection, connected at its first report. */
export class MqttReporter {
  private readonly clients = new Map<string, MqttClient>();
  private closed = false;

  constructor(
    private readonly connections: ReadonlyMap<string, MqttConnectionConfig>,
    private readonly buildUrl: (tenant: string, uuid: string) => string,
    private readonly log: DriverLog,
    private readonly now: () => Date = () => new Date(),
    private readonly publishTimeoutMs = PUBLISH_TIMEOUT_MS,
  ) {}

  private client(name: string, settings: MqttConnectionConfig): MqttClient {
    let client = this.clients.get(name);
    if (client === undefined) {
      const { url, options } = clientOptions(settings);
      client = mqtt.connect(url, options);
      client.on('error', (err) => this.log.warn({ connection: name, err: String(err) }, 'mqtt connection error'));
      this.clients.set(name, client);
    }
    return client;
  }

  async report(report: ItemReport): Promise<void> {
    const failures: string[] = [];
    for (const reporter of report.reporters) {
      const settings = this.connections.get(reporter.connection);
      if (settings === undefined || this.closed) {
        continue;
      }
      const options = reporter.options;
      const topic = mqttTopic(String(options.topic), report);
      const qos = (typeof options.qos === 'number' ? options.qos : 0) as 0 | 1 | 2;
      const message = mqttMessage(
        report,
        (uuid) => this.buildUrl(report.tenant, uuid),
        this.now(),
        options['include-returned-data'] === true,
      );
      let timer: NodeJS.Timeout | undefined;
      try {
        // The client queues a message while it (re)connects; a publish not done in time is given up.
        await Promise.race([
          this.client(reporter.connection, settings).publishAsync(topic, JSON.stringify(message), { qos }),
          new Promise((_resolve, reject) => {
            timer = setTimeout(
              () => reject(new Error(`not published in ${this.publishTimeoutMs} ms`)),
              this.publishTimeoutMs,
            );
          }),
        ]);
      } catch (err) {
        this.log.error({ connection: reporter.connection, topic, err: String(err) }, 'mqtt report not sent');
        failures.push(sendFailure(`mqtt report to ${topic} (${reporter.connection})`, err));
      } finally {
        clearTimeout(timer);
      }
    }
    throwIfNotSent(failures);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.clients.values()].map((client) => client.endAsync(true)));
    this.clients.clear();
  }
}

export const mqttDriver = {
  name: 'mqtt',
  connection: {
    schema: mqttConnection,
    files: (settings) => FILE_KEYS.map((key) => ({ key, file: settings[key], kind: 'readable' as const })),
    resolvePaths(settings, resolve) {
      for (const key of FILE_KEYS) {
        const file = settings[key];
        if (file !== undefined) {
          settings[key] = resolve(file);
        }
      }
    },
    canonicalHostname: (name) => name,
  },
  reporters: {
    validate(options, read, attribute) {
      read.keys(options, REPORTER_KEYS, ['topic'], `data['${attribute}']`);
      if (typeof options.topic !== 'string') {
        read.fail(`expected str for dictionary value @ data['${attribute}']['topic']`);
      }
      const qos = options.qos;
      if (qos !== undefined && (typeof qos !== 'number' || ![0, 1, 2].includes(qos))) {
        read.fail(`qos must be 0, 1 or 2 @ data['${attribute}']['qos']`);
      }
      read.bool(options, 'include-returned-data');
    },
    compile: () => ({ external: true }),
  },
  runtime(context) {
    const buildUrl = (tenant: string, uuid: string) =>
      context.buildsetUrl(tenant, uuid).replace(/\/buildset\/([^/]+)$/, '/build/$1');
    const reporter = new MqttReporter(context.connections, buildUrl, context.log, context.now);
    return {
      reporter,
      tasks: [{ name: 'mqtt', role: 'scheduler', start: () => undefined, stop: () => reporter.close() }],
    };
  },
} satisfies Driver<MqttConnectionConfig>;
