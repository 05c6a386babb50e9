/**
 * The event stream's host key check (docs/gerrit.md#host-keys): OpenSSH's known_hosts format
 * (plain, wildcard, negated and hashed host names, `@revoked`), trust on first use recorded in
 * the data directory's file, a differing key refused, and the host key types asked for.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { utils } from 'ssh2';
import { hostKeyCheck, keysOf, knownHostName } from '../../../src/drivers/gerrit/known-hosts';
import { temporaryDirectory } from '../../helpers/temporary-directory';

/** A public key's OpenSSH line fields and its raw blob (what ssh2 hands the verifier). */
function publicKey(type: 'ed25519' | 'ecdsa' = 'ed25519') {
  const keys =
    type === 'ecdsa' ? utils.generateKeyPairSync('ecdsa', { bits: 256 }) : utils.generateKeyPairSync('ed25519');
  const [algo, data] = keys.public.split(/\s+/);
  return { algo, data, blob: Buffer.from(data, 'base64') };
}

function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}

describe('Gerrit host key check', () => {
  const dir = temporaryDirectory('sluice-known-hosts-');
  const none = path.join(dir, 'no-system-file');
  let n = 0;
  const file = (text?: string) => {
    const at = path.join(dir, `known_hosts_${(n += 1)}`);
    if (text !== undefined) {
      writeFileSync(at, text);
    }
    return at;
  };

  it('names a host on another port as OpenSSH does', () => {
    expect(knownHostName('review.example.com', 22)).toBe('review.example.com');
    expect(knownHostName('review.example.com', 29418)).toBe('[review.example.com]:29418');
  });

  it('trusts a first key and records it, then trusts only that one', () => {
    const at = file();
    const key = publicKey();
    const first = hostKeyCheck(at, 'review.example.com', 29418, none);
    expect(first.serverHostKey).toBeUndefined();
    expect(first.verify(key.blob)).toBe(true);
    expect(readFileSync(at, 'utf8')).toBe(`[review.example.com]:29418 ${key.algo} ${key.data}\n`);
    const again = hostKeyCheck(at, 'review.example.com', 29418, none);
    expect(again.serverHostKey).toEqual(['ssh-ed25519']);
    expect(again.verify(key.blob)).toBe(true);
    const changed = hostKeyCheck(at, 'review.example.com', 29418, none);
    expect(changed.verify(publicKey().blob)).toBe(false);
    expect(changed.refusal).toMatch(/differs from the one recorded/);
    expect(readFileSync(at, 'utf8').trim().split('\n')).toHaveLength(1);
    // Another port of the same host is another host.
    expect(hostKeyCheck(at, 'review.example.com', 22, none).serverHostKey).toBeUndefined();
  });

  it('reads hashed, wildcard and negated host names, and the system file', () => {
    const key = publicKey();
    const name = '[review.example.com]:29418';
    expect(keysOf(`${hashed(name)} ${key.algo} ${key.data}\n`, name).trusted).toEqual([
      { type: key.algo, key: key.data },
    ]);
    expect(keysOf(`${hashed('[other]:29418')} ${key.algo} ${key.data}\n`, name).trusted).toEqual([]);
    expect(keysOf(`[*.example.com]:29418 ${key.algo} ${key.data}\n`, name).trusted).toHaveLength(1);
    expect(keysOf(`[*.example.com]:29418,![review.example.com]:29418 ${key.algo} ${key.data}`, name).trusted).toEqual(
      [],
    );
    expect(keysOf(`# a comment\n\n@cert-authority ${name} ${key.algo} ${key.data}\n`, name).trusted).toEqual([]);
    const system = file(`${name} ${key.algo} ${key.data}\n`);
    const check = hostKeyCheck(file(), 'review.example.com', 29418, system);
    expect(check.verify(key.blob)).toBe(true);
    expect(check.verify(publicKey().blob)).toBe(false);
  });

  it('refuses a revoked key and asks for the known key types only', () => {
    const ecdsa = publicKey('ecdsa');
    const revoked = publicKey();
    const at = file(`@revoked * ${revoked.algo} ${revoked.data}\n[gerrit]:29418 ${ecdsa.algo} ${ecdsa.data}`);
    const check = hostKeyCheck(at, 'gerrit', 29418, none);
    expect(check.serverHostKey).toEqual(['ecdsa-sha2-nistp256']);
    expect(check.verify(revoked.blob)).toBe(false);
    expect(check.refusal).toMatch(/revoked/);
    expect(check.verify(ecdsa.blob)).toBe(true);
    // A file without a final newline gets its own line when a key is recorded.
    const unterminated = file(`[other]:22 ${ecdsa.algo} ${ecdsa.data}`);
    hostKeyCheck(unterminated, 'gerrit', 29418, none).verify(ecdsa.blob);
    expect(readFileSync(unterminated, 'utf8').split('\n')).toHaveLength(3);
  });
});
