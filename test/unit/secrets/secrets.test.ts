import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  decryptSecret,
  encryptSecret,
  maxChunkBytes,
  secretStanza,
  SecretDecryptionError,
  splitUtf8,
} from '../../../src/secrets/encryption';
import { combineRedactors, createRedactor, REDACTED, secretStrings } from '../../../src/secrets/redact';
import { GraphQLError } from 'graphql';
import { redactExecutionResult } from '../../../src/server/secret-redaction';
import { temporaryDirectory } from '../../helpers/temporary-directory';

// 4096 bits as in production: the chunk size (470 bytes) and ciphertext length (684 base64
// characters) are part of the format.
const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 4096 });
const work = temporaryDirectory('sluice-secrets-');

describe('pkcs1-oaep secrets', () => {
  it('uses 470-byte chunks and 684-character base64 ciphertexts for 4096-bit keys', () => {
    expect(maxChunkBytes(publicKey)).toBe(470);
    const chunks = encryptSecret('x'.repeat(1000), publicKey);
    expect(chunks).toHaveLength(3);
    expect(chunks.every((c) => c.length === 684)).toBe(true);
    expect(decryptSecret(chunks, privateKey)).toBe('x'.repeat(1000));
  });

  it('round-trips a single chunk given as a scalar, and strips surrounding whitespace by default', () => {
    const [chunk] = encryptSecret('  s3cret\n', publicKey);
    expect(decryptSecret(chunk, privateKey)).toBe('s3cret');
    expect(decryptSecret(encryptSecret('  keep  ', publicKey, { strip: false }), privateKey)).toBe('  keep  ');
    expect(decryptSecret(encryptSecret('', publicKey), privateKey)).toBe('');
  });

  it('never splits a multi-byte character across chunks', () => {
    const text = `${'a'.repeat(469)}é${'€'.repeat(200)}`;
    const parts = splitUtf8(text, 470);
    expect(parts.every((p) => p.length <= 470)).toBe(true);
    expect(parts.map((p) => new TextDecoder('utf-8', { fatal: true }).decode(p)).join('')).toBe(text);
    expect(decryptSecret(encryptSecret(text, publicKey), privateKey)).toBe(text);
  });

  it('decrypts what OpenSSL encrypts with the public key (default OAEP hash is SHA-1)', () => {
    const pub = path.join(work, 'key.pub');
    const plain = path.join(work, 'plain');
    writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(plain, 'multi\nline\nsecret');
    const out = execFileSync('openssl', [
      'pkeyutl',
      '-encrypt',
      '-pubin',
      '-inkey',
      pub,
      '-in',
      plain,
      '-pkeyopt',
      'rsa_padding_mode:oaep',
    ]);
    // Base64 broken over lines, as pasted into YAML block scalars.
    const wrapped = out.toString('base64').replace(/.{1,64}/g, '$&\n');
    expect(decryptSecret(wrapped, privateKey)).toBe('multi\nline\nsecret');
  });

  it('produces values OpenSSL can decrypt with the private key', () => {
    const key = path.join(work, 'key.pem');
    const cipher = path.join(work, 'cipher.bin');
    writeFileSync(key, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
    writeFileSync(cipher, Buffer.from(encryptSecret('from sluice', publicKey)[0], 'base64'));
    const out = execFileSync('openssl', [
      'pkeyutl',
      '-decrypt',
      '-inkey',
      key,
      '-in',
      cipher,
      '-pkeyopt',
      'rsa_padding_mode:oaep',
    ]);
    expect(out.toString()).toBe('from sluice');
  });

  it('names the failing chunk without revealing content', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const chunks = encryptSecret('abc', publicKey);
    expect(() => decryptSecret(chunks, other.privateKey)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret([chunks[0], 'bm90IGEgY2lwaGVydGV4dA=='], privateKey)).toThrow(
      'chunk 2 of the encrypted value could not be decrypted',
    );
  });

  it('prints a secret stanza laid out like the reference tool that parses back to the chunks', () => {
    const chunks = encryptSecret('y'.repeat(600), publicKey);
    const stanza = secretStanza(chunks, { name: 'deploy', field: 'password' });
    const lines = stanza.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '- secret:',
      '    name: deploy',
      '    data:',
      '      password: !encrypted/pkcs1-oaep',
    ]);
    expect(lines[4]).toMatch(/^ {8}- [A-Za-z0-9+/]{69}$/);
    expect(lines[5]).toMatch(/^ {10}[A-Za-z0-9+/]{69}$/);
    expect(lines.every((line) => line.length <= 79)).toBe(true);
    // A YAML parser without the custom tag folds each item into one scalar with spaces.
    const parsed = parse(stanza, {
      customTags: [{ tag: '!encrypted/pkcs1-oaep', collection: 'seq', resolve: (seq) => seq }],
    }) as Array<{
      secret: { data: { password: string[] } };
    }>;
    const items = parsed[0].secret.data.password;
    expect(items[0]).toContain(' ');
    expect(items).toHaveLength(2);
    expect(decryptSecret(items, privateKey)).toBe('y'.repeat(600));
    expect(secretStanza(chunks).split('\n').slice(1, 4)).toEqual([
      '    name: <name>',
      '    data:',
      '      <fieldname>: !encrypted/pkcs1-oaep',
    ]);
  });
});

describe('redactor', () => {
  it('replaces every occurrence, longest values first', () => {
    const r = createRedactor(['hunter2', 'hunter2-extended']);
    expect(r.redact('pw=hunter2-extended and hunter2; hunter2')).toBe(`pw=${REDACTED} and ${REDACTED}; ${REDACTED}`);
  });

  it('redacts multi-line values whole and line by line', () => {
    const key = '-----BEGIN KEY-----\nAAAAline1\nBBBBline2\n-----END KEY-----';
    const r = createRedactor([key]);
    expect(r.redact(`cat key\n${key}\ndone`)).toBe(`cat key\n${REDACTED}\ndone`);
    expect(r.redact('[step] BBBBline2')).toBe(`[step] ${REDACTED}`);
  });

  it('escapes regular-expression characters and ignores very short values', () => {
    const r = createRedactor(['a+b(c)*', 'ci', '']);
    expect(r.redact('x a+b(c)* ci')).toBe(`x ${REDACTED} ci`);
    expect(createRedactor(['ci']).active).toBe(false);
  });

  it('redacts strings anywhere in JSON values, keys included', () => {
    const r = createRedactor(['topsecret']);
    expect(r.redactJson({ a: ['x topsecret', 1, null, { topsecret: true }] })).toEqual({
      a: [`x ${REDACTED}`, 1, null, { [REDACTED]: true }],
    });
  });

  it('collects the string leaves of decrypted secret data', () => {
    expect(secretStrings({ user: 'bot', password: 'pw1234', nested: [{ token: 'tok-567' }], port: 2222 })).toEqual([
      'bot',
      'pw1234',
      'tok-567',
      '2222',
    ]);
  });

  it('combines redactors so the longest value of any of them wins', () => {
    const combined = combineRedactors([createRedactor(['abcdef']), createRedactor(['abcdefgh-longer'])]);
    expect(combined.redact('x abcdefgh-longer y abcdef')).toBe(`x ${REDACTED} y ${REDACTED}`);
    expect(combineRedactors([]).active).toBe(false);
    // The values are not reachable through the object (it may be logged).
    expect(JSON.stringify(combined)).toBe('{"active":true}');
  });
});

describe('GraphQL result masking', () => {
  const redactor = createRedactor(['s3cret-value']);

  it('masks data, extensions and error messages, keeping errors GraphQLErrors with their extensions', () => {
    const error = new GraphQLError('bad s3cret-value here', {
      path: ['a'],
      extensions: { code: 'X', http: { status: 401 } },
    });
    const untouched = new GraphQLError('fine', { extensions: { code: 'Y' } });
    const result = {
      data: { a: 's3cret-value', b: [{ c: 'x s3cret-value' }] },
      errors: [error, untouched],
      extensions: { note: 's3cret-value' },
    };
    const masked = redactExecutionResult(result, redactor);
    expect(masked.data).toEqual({ a: REDACTED, b: [{ c: `x ${REDACTED}` }] });
    expect(masked.extensions).toEqual({ note: REDACTED });
    expect(masked.errors?.[0]).toBeInstanceOf(GraphQLError);
    expect(masked.errors?.[0].message).toBe(`bad ${REDACTED} here`);
    expect(masked.errors?.[0].path).toEqual(['a']);
    expect(masked.errors?.[0].extensions).toEqual({ code: 'X', http: { status: 401 } });
    expect(masked.errors?.[1]).toBe(untouched);
    // A shared subscription result is masked once.
    expect(redactExecutionResult(result, redactor)).toBe(masked);
  });

  it('returns the result itself while no secret is loaded', () => {
    const result = { data: { a: 's3cret-value' } };
    expect(redactExecutionResult(result, createRedactor([]))).toBe(result);
  });
});
