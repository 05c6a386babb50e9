/**
 * Public key formats served by the key endpoints (docs/rest.md#public-keys,
 * docs/rest.md#deliberate-differences-from-the-reference): PEM SubjectPublicKeyInfo for the secrets key, an OpenSSH
 * `ssh-rsa` line for SSH keys.
 */
import type { KeyObject } from 'node:crypto';

/** `-----BEGIN PUBLIC KEY-----` PEM, ending with a newline. */
export function pemPublicKey(publicKey: KeyObject): string {
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}

/** `ssh-rsa <base64 of the RFC 4253 wire encoding>` plus a newline. */
export function opensshPublicKey(publicKey: KeyObject): string {
  if (publicKey.asymmetricKeyType !== 'rsa') {
    throw new Error(`only RSA SSH keys are supported, got ${publicKey.asymmetricKeyType ?? 'unknown'}`);
  }
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.n === undefined || jwk.e === undefined) {
    throw new Error('the RSA public key has no modulus or exponent');
  }
  const blob = Buffer.concat([
    sshString(Buffer.from('ssh-rsa')),
    sshString(mpint(Buffer.from(jwk.e, 'base64url'))),
    sshString(mpint(Buffer.from(jwk.n, 'base64url'))),
  ]);
  return `ssh-rsa ${blob.toString('base64')}\n`;
}

/** RFC 4251 `string`: a uint32 length then the bytes. */
function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** RFC 4251 `mpint` body: minimal big-endian two's complement of a positive integer. */
function mpint(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) {
    start++;
  }
  const trimmed = unsigned.subarray(start);
  return (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
}
