/**
 * Signs JWTs for tests, synchronously, with node:crypto: an implementation independent of the
 * jose library that src/auth/jwt.ts verifies with, so a test token checks jose's verification.
 */
import { constants, createHmac, createSign, type KeyObject } from 'node:crypto';
import type { JsonObject, JwtAlgorithm } from '../../src/auth/jwt';

/** base64url without padding (RFC 7515 §2). */
export function base64UrlEncode(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

const FAMILIES: Readonly<Record<JwtAlgorithm, { family: 'hmac' | 'rsa' | 'rsa-pss' | 'ec'; hash: string }>> = {
  HS256: { family: 'hmac', hash: 'sha256' },
  RS256: { family: 'rsa', hash: 'sha256' },
  RS384: { family: 'rsa', hash: 'sha384' },
  RS512: { family: 'rsa', hash: 'sha512' },
  PS256: { family: 'rsa-pss', hash: 'sha256' },
  ES256: { family: 'ec', hash: 'sha256' },
  ES384: { family: 'ec', hash: 'sha384' },
};

/** The key a token is signed with (for `sluice token create` and tests). */
export type SigningKey = { kind: 'secret'; secret: Buffer } | { kind: 'private'; key: KeyObject };

/** Encode and sign a JWT. `header.alg` is set from `alg`. */
export function signJwt(payload: JsonObject, alg: JwtAlgorithm, key: SigningKey, header: JsonObject = {}): string {
  const spec = FAMILIES[alg];
  const signingInput = `${base64UrlEncode(JSON.stringify({ ...header, alg, typ: 'JWT' }))}.${base64UrlEncode(JSON.stringify(payload))}`;
  let signature: Buffer;
  if (spec.family === 'hmac') {
    if (key.kind !== 'secret') {
      throw new Error(`${alg} needs a shared secret`);
    }
    signature = createHmac(spec.hash, key.secret).update(signingInput).digest();
  } else {
    if (key.kind !== 'private') {
      throw new Error(`${alg} needs a private key`);
    }
    const options =
      spec.family === 'ec'
        ? { key: key.key, dsaEncoding: 'ieee-p1363' as const }
        : spec.family === 'rsa-pss'
          ? { key: key.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
          : { key: key.key };
    signature = createSign(spec.hash).update(signingInput).sign(options);
  }
  return `${signingInput}.${base64UrlEncode(signature)}`;
}
