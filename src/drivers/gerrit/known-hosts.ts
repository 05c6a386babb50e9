/**
 * Gerrit's SSH host key checked by the event stream as OpenSSH checks it for git over SSH
 * (docs/gerrit.md#host-keys): the keys recorded for `[host]:port` (`host` on port 22) in
 * `<dataDir>/ssh_known_hosts` and in the system's `/etc/ssh/ssh_known_hosts`, OpenSSH's format
 * (host names plain, with `*`/`?` patterns and `!` negations, or hashed `|1|salt|hash`). A host
 * with no key recorded is trusted on first use and its key appended to the data directory's file;
 * a host with keys recorded is trusted only with one of them, and ssh2 is asked for those key
 * types only (as OpenSSH prefers the known types), so a key of another type is no reason to refuse.
 */
import { createHmac } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const SYSTEM_KNOWN_HOSTS = '/etc/ssh/ssh_known_hosts';

/** ssh2's host key algorithms of a key type (an RSA key is signed with SHA-2 first). */
const ALGORITHMS: Record<string, string[]> = {
  'ssh-ed25519': ['ssh-ed25519'],
  'ecdsa-sha2-nistp256': ['ecdsa-sha2-nistp256'],
  'ecdsa-sha2-nistp384': ['ecdsa-sha2-nistp384'],
  'ecdsa-sha2-nistp521': ['ecdsa-sha2-nistp521'],
  'ssh-rsa': ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'],
  'ssh-dss': ['ssh-dss'],
};

/** The name a host is recorded under: `host` on port 22, `[host]:port` otherwise (OpenSSH's). */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** Whether one host pattern of a known_hosts line (plain, wildcard or hashed) names `name`. */
function patternNames(pattern: string, name: string): boolean {
  const hashed = /^\|1\|([^|]+)\|([^|]+)$/.exec(pattern);
  if (hashed !== null) {
    const digest = createHmac('sha1', Buffer.from(hashed[1], 'base64')).update(name).digest('base64');
    return digest === hashed[2];
  }
  const glob = pattern
    .toLowerCase()
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${glob}$`).test(name.toLowerCase());
}

/** Whether a line's host field names `name`: some pattern does and no negated one (`!pattern`) does. */
function hostsName(field: string, name: string): boolean {
  const patterns = field.split(',');
  if (patterns.some((p) => p.startsWith('!') && patternNames(p.slice(1), name))) {
    return false;
  }
  return patterns.some((p) => !p.startsWith('!') && patternNames(p, name));
}

/** The keys (`type`, base64 blob) recorded for `name` in known_hosts text; `@revoked` ones apart. */
export function keysOf(text: string, name: string): { trusted: KnownKey[]; revoked: KnownKey[] } {
  const trusted: KnownKey[] = [];
  const revoked: KnownKey[] = [];
  for (const raw of text.split('\n')) {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === '' || fields[0].startsWith('#')) {
      continue;
    }
    const marker = fields[0].startsWith('@') ? (fields.shift() as string) : null;
    const [hosts, type, key] = fields;
    if (key === undefined || marker === '@cert-authority' || !hostsName(hosts, name)) {
      continue;
    }
    (marker === '@revoked' ? revoked : trusted).push({ type, key });
  }
  return { trusted, revoked };
}

export interface KnownKey {
  type: string;
  key: string;
}

/** The key type a raw SSH public key blob starts with (`ssh-ed25519`), or '' for a malformed blob. */
function blobType(blob: Buffer): string {
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  return length > 0 && 4 + length <= blob.length ? blob.subarray(4, 4 + length).toString('latin1') : '';
}

export interface HostKeyCheck {
  /** ssh2's `algorithms.serverHostKey`: the known keys' types, or undefined (ssh2's own) when none is known. */
  serverHostKey: string[] | undefined;
  /** ssh2's `hostVerifier`: whether to trust the raw key Gerrit offered (recording it when none was known). */
  verify(blob: Buffer): boolean;
  /** Why the last key was refused, for the log. */
  refusal: string | null;
}

/**
 * The host key check of `host`:`port` against `file` (recorded there on first use) and the
 * system's file, read now (each connection reads them again: a key pinned meanwhile counts).
 */
export function hostKeyCheck(file: string, host: string, port: number, systemFile = SYSTEM_KNOWN_HOSTS): HostKeyCheck {
  const name = knownHostName(host, port);
  const read = (at: string) => (existsSync(at) ? readFileSync(at, 'utf8') : '');
  const text = `${read(file)}\n${read(systemFile)}`;
  const { trusted, revoked } = keysOf(text, name);
  const types = [...new Set(trusted.map((k) => k.type))].flatMap((type) => ALGORITHMS[type] ?? []);
  const check: HostKeyCheck = {
    serverHostKey: trusted.length === 0 || types.length === 0 ? undefined : types,
    refusal: null,
    verify: (blob) => {
      const key = blob.toString('base64');
      if (revoked.some((k) => k.key === key)) {
        check.refusal = `the host key of ${name} is revoked (${file})`;
        return false;
      }
      if (trusted.length === 0) {
        mkdirSync(path.dirname(file), { recursive: true });
        const before = read(file);
        const separator = before === '' || before.endsWith('\n') ? '' : '\n';
        appendFileSync(file, `${separator}${name} ${blobType(blob)} ${key}\n`);
        return true;
      }
      if (trusted.some((k) => k.key === key)) {
        return true;
      }
      check.refusal = `the host key of ${name} differs from the one recorded in ${file} (host key verification failed)`;
      return false;
    },
  };
  return check;
}
