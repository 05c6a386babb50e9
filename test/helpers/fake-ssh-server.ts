/**
 * The SSH side of the fake Gerrit and the fake GitLab: an `ssh2` server on 127.0.0.1 that accepts
 * one user with one public key and answers `git-upload-pack '/<project>'` (git over SSH: `git
 * upload-pack` of the project's repository under `gitRoot`, a trailing `.git` left out) and, for
 * Gerrit, `gerrit stream-events` with the events the fake emits, one JSON object a line.
 * `drop()` closes every stream (the driver must connect again).
 */
import { spawn } from 'node:child_process';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Server, utils, type ServerChannel } from 'ssh2';

/** An ed25519 key pair in OpenSSH's form that ssh2 reads back. */
export function sshKeyPair(): { private: string; public: string } {
  // ssh2 now and then writes an ed25519 key it cannot read back: make another.
  let keys = utils.generateKeyPairSync('ed25519');
  while (utils.parseKey(keys.private) instanceof Error) {
    keys = utils.generateKeyPairSync('ed25519');
  }
  return keys;
}

export class FakeSshServer {
  private readonly server: Server;
  private readonly streams = new Set<ServerChannel>();
  private readonly waiting: Array<() => void> = [];
  /** How many `gerrit stream-events` sessions were opened. */
  opened = 0;
  /** The projects fetched over SSH (`git-upload-pack`), in order. */
  readonly uploadPacks: string[] = [];
  /** The server's public host key, OpenSSH's one-line form (`ssh-ed25519 AAAA...`). */
  readonly hostPublicKey: string;
  port = 0;

  constructor(
    user: string,
    clientPublicKey: string,
    private readonly gitRoot: string,
  ) {
    const hostKey = sshKeyPair();
    this.hostPublicKey = hostKey.public.trim();
    const allowed = utils.parseKey(clientPublicKey);
    if (allowed instanceof Error) {
      throw allowed;
    }
    this.server = new Server({ hostKeys: [hostKey.private] }, (client) => {
      client.on('error', () => undefined);
      // A client gone (Sluice stopped) no longer listens, whether or not its channel said so.
      const mine = new Set<ServerChannel>();
      client.on('close', () => mine.forEach((channel) => this.streams.delete(channel)));
      client.on('authentication', (ctx) => {
        const fits =
          ctx.method === 'publickey' &&
          ctx.username === user &&
          ctx.key.algo === allowed.type &&
          ctx.key.data.length === allowed.getPublicSSH().length &&
          timingSafeEqual(ctx.key.data, allowed.getPublicSSH());
        if (
          !fits ||
          (ctx.method === 'publickey' &&
            ctx.signature &&
            !allowed.verify(ctx.blob as Buffer, ctx.signature, ctx.hashAlgo))
        ) {
          ctx.reject(['publickey']);
          return;
        }
        ctx.accept();
      });
      client.on('ready', () => {
        client.on('session', (accept) => {
          const session = accept();
          session.on('exec', (acceptExec, _reject, info) => {
            const channel = acceptExec();
            const upload = /^git-upload-pack '\/?([^']+?)(?:\.git)?'$/.exec(info.command);
            if (upload !== null) {
              this.uploadPack(channel, upload[1]);
              return;
            }
            if (info.command !== 'gerrit stream-events') {
              channel.stderr.write(`fatal: unknown command ${info.command}\n`);
              channel.exit(1);
              channel.end();
              return;
            }
            this.opened += 1;
            this.streams.add(channel);
            mine.add(channel);
            channel.on('close', () => this.streams.delete(channel));
            this.waiting.splice(0).forEach((resolve) => resolve());
          });
        });
      });
    });
  }

  /** Serve a fetch of a project: `git upload-pack` of its repository, its exit status as the channel's. */
  private uploadPack(channel: ServerChannel, project: string): void {
    if (project.split('/').some((part) => part === '..' || part === '')) {
      channel.stderr.write(`fatal: bad project ${project}\n`);
      channel.exit(1);
      channel.end();
      return;
    }
    this.uploadPacks.push(project);
    const child = spawn('git', ['upload-pack', path.join(this.gitRoot, project)], { stdio: 'pipe' });
    channel.pipe(child.stdin);
    child.stdout.pipe(channel, { end: false });
    child.stderr.pipe(channel.stderr, { end: false });
    child.on('error', () => channel.close());
    child.on('close', (code) => {
      channel.exit(code ?? 1);
      channel.end();
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Resolves once a stream is open (at once when one is). */
  connected(): Promise<void> {
    return this.streams.size > 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Whether a stream is open now. */
  get listening(): boolean {
    return this.streams.size > 0;
  }

  /** Send one event line to every open stream. */
  send(line: string): void {
    for (const stream of this.streams) {
      stream.write(`${line}\n`);
    }
  }

  /** Close every open stream. */
  drop(): void {
    for (const stream of this.streams) {
      stream.exit(0);
      stream.end();
    }
    this.streams.clear();
  }

  async stop(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
