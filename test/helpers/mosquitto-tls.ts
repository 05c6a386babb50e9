/**
 * A Mosquitto broker of its own for a test (docs/reporters.md#mqtt): a TLS listener on a free port
 * of 127.0.0.1 with certificates made by `openssl` — a CA, the server's certificate for
 * 127.0.0.1 and a client certificate, both signed by it — and a second CA that signed neither.
 * The broker requires a client certificate and speaks TLS 1.3 with the one cipher `cipher`.
 * Never the shared broker on 1883.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';

export interface TlsBroker {
  port: number;
  dir: string;
  /** PEM files: the CA, the client's certificate and key, and a CA that signed nothing here. */
  files: { ca: string; cert: string; key: string; otherCa: string };
  /** The only cipher the broker accepts (TLS 1.3). */
  cipher: string;
  stop(): Promise<void>;
}

const CIPHER = 'TLS_AES_256_GCM_SHA384';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A CA's key and self-signed certificate. */
function makeCa(dir: string, name: string): void {
  openssl(
    dir,
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'].concat([
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-subj',
      `/CN=${name}`,
    ]),
  );
}

/** A key and a certificate signed by the CA `ca`, with `ext` (subjectAltName, usage). */
function makeSigned(dir: string, name: string, ca: string, ext: string): void {
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  ]);
  writeFileSync(path.join(dir, `${name}.ext`), `${ext}\n`);
  openssl(
    dir,
    ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`].concat([
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.pem`,
      '-extfile',
      `${name}.ext`,
    ]),
  );
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startTlsBroker(): Promise<TlsBroker> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-mqtt-tls-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeSigned(dir, 'server', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost');
  makeSigned(dir, 'client', 'ca', 'extendedKeyUsage=clientAuth');
  // A broker started as root runs as the user `mosquitto`: it must read the directory and its files.
  chmodSync(dir, 0o755);
  readdirSync(dir).forEach((file) => chmodSync(path.join(dir, file), 0o644));
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      `cafile ${path.join(dir, 'ca.pem')}`,
      `certfile ${path.join(dir, 'server.pem')}`,
      `keyfile ${path.join(dir, 'server.key')}`,
      'require_certificate true',
      'tls_version tlsv1.3',
      `ciphers_tls1.3 ${CIPHER}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const files = {
    ca: path.join(dir, 'ca.pem'),
    cert: path.join(dir, 'client.pem'),
    key: path.join(dir, 'client.key'),
    otherCa: path.join(dir, 'other-ca.pem'),
  };
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once a TLS client with the right certificates connects.
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const client = await mqtt.connectAsync(`mqtts://127.0.0.1:${port}`, {
        ...tlsFiles(files),
        reconnectPeriod: 0,
        connectTimeout: 2000,
      });
      await client.endAsync();
      break;
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`mosquitto did not start: ${String(err)}\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { port, dir, files, cipher: CIPHER, stop };
}

/** The client options of a TLS client with the CA and client certificate of `files`. */
export function tlsFiles(files: TlsBroker['files']): { ca: Buffer; cert: Buffer; key: Buffer } {
  return { ca: readFileSync(files.ca), cert: readFileSync(files.cert), key: readFileSync(files.key) };
}
