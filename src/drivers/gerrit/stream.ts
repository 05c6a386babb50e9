/**
 * The event stream of one Gerrit connection (docs/gerrit.md#events): `gerrit stream-events` run
 * over SSH with the `ssh2` client as `user` with `sshkey`; each line is stored in
 * `connection_events` as it arrives (de-duplicated by its content, so a line seen twice is stored
 * once) and the intake woken. Gerrit's host key is checked against `<dataDir>/ssh_known_hosts` as
 * git over SSH checks it (trusted on first use, a changed key refused: src/drivers/gerrit/known-hosts.ts). A dropped connection is made again after a growing pause (1 s,
 * doubling up to 60 s, back to 1 s once a connection stood).
 */
import { readFileSync } from 'node:fs';
import { Client, type ServerHostKeyAlgorithm } from 'ssh2';
import type { ConnectionEventRepository } from '../../store/repositories/connection-events';
import type { DriverLog } from '../driver';
import type { GerritConnectionConfig } from './connection-schema';
import { eventDelivery } from './events';
import { hostKeyCheck } from './known-hosts';
import { caughtUpAlready } from './ref-catch-up';

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 60_000;

export interface StreamOptions {
  connection: string;
  settings: GerritConnectionConfig;
  /** The known_hosts file Gerrit's host key is checked against and recorded in (docs/gerrit.md#host-keys). */
  knownHosts: string;
  events: ConnectionEventRepository;
  now(): Date;
  /** A line was stored. */
  onStored(): void;
  /** The stream opened (events sent before were not heard: catch up on them). */
  onOpen(): void;
  log: DriverLog;
}

export class GerritEventStream {
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pause = FIRST_PAUSE_MS;
  private stopped = false;
  /** Stores in flight, awaited on stop. */
  private storing: Promise<void> = Promise.resolve();

  constructor(private readonly options: StreamOptions) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.client?.end();
    this.client = null;
    await this.storing;
  }

  private connect(): void {
    const { settings, connection, log } = this.options;
    if (settings.sshkey === undefined) {
      return;
    }
    const client = new Client();
    this.client = client;
    let buffered = '';
    let closed = false;
    const again = (reason: string) => {
      if (closed) {
        return;
      }
      closed = true;
      client.end();
      if (this.stopped) {
        return;
      }
      log.warn({ connection, reason, retryInMs: this.pause }, 'Gerrit event stream closed, connecting again');
      this.timer = setTimeout(() => this.connect(), this.pause);
      this.pause = Math.min(this.pause * 2, LONGEST_PAUSE_MS);
    };
    client.on('ready', () => {
      client.exec('gerrit stream-events', (err, channel) => {
        if (err) {
          again(err.message);
          return;
        }
        log.info({ connection }, 'Gerrit event stream open');
        this.pause = FIRST_PAUSE_MS;
        this.options.onOpen();
        channel.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          let newline = buffered.indexOf('\n');
          while (newline >= 0) {
            const line = buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
            if (line.trim() !== '') {
              this.store(line);
            }
            newline = buffered.indexOf('\n');
          }
        });
        channel.stderr.on('data', (chunk: Buffer) => log.warn({ connection, stderr: chunk.toString() }, 'Gerrit said'));
        channel.on('close', () => again('the stream ended'));
      });
    });
    const host = settings.ssh_server ?? settings.server;
    const hostKey = hostKeyCheck(this.options.knownHosts, host, settings.port);
    client.on('error', (err) => again(hostKey.refusal ?? err.message));
    client.on('close', () => again(hostKey.refusal ?? 'the connection closed'));
    client.connect({
      host,
      port: settings.port,
      hostVerifier: (key: Buffer) => hostKey.verify(key),
      ...(hostKey.serverHostKey === undefined
        ? {}
        : { algorithms: { serverHostKey: hostKey.serverHostKey as ServerHostKeyAlgorithm[] } }),
      username: settings.user,
      privateKey: readFileSync(settings.sshkey),
      keepaliveInterval: settings.keepalive * 1000,
      readyTimeout: 30_000,
    });
  }

  /** Store one line (in order: each store waits for the one before). */
  private store(line: string): void {
    this.storing = this.storing.then(async () => {
      if ((await storeStreamLine(this.options, line)) !== null) {
        this.options.onStored();
      }
    });
  }
}

/**
 * Store one line of `gerrit stream-events` (or the same event read from the events-log plugin,
 * src/drivers/gerrit/events-log.ts) under the hash of its text; a `ref-updated` under the
 * connection's ref lock, not stored when the catch-up stored that update already. Resolves with
 * whether it was newly stored, null when it could not be (no JSON, the database failed: logged).
 */
export async function storeStreamLine(
  options: Pick<StreamOptions, 'connection' | 'events' | 'now' | 'log'>,
  line: string,
): Promise<boolean | null> {
  const { connection, events, now, log } = options;
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(line) as Record<string, unknown>;
  } catch {
    log.warn({ connection, line: line.slice(0, 200) }, 'Gerrit sent a line that is no JSON; ignored');
    return null;
  }
  const type = typeof payload.type === 'string' ? payload.type : 'unknown';
  const row = { connection, delivery: eventDelivery(line), eventType: type, payload };
  try {
    if (type !== 'ref-updated') {
      return await events.record(row, now());
    }
    // A branch update the catch-up stored already while the stream reconnected is not stored again.
    const caught = await events.withRefLock(connection, async (locked) => {
      const already = await caughtUpAlready(locked, connection, payload);
      return already || !(await locked.record(row, now()));
    });
    if (caught) {
      log.info({ connection, refUpdate: payload.refUpdate }, 'Gerrit branch update stored already');
    }
    return !caught;
  } catch (err) {
    log.error({ connection, err, type }, 'Gerrit event not stored');
    return null;
  }
}
