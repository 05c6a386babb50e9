/**
 * HTTP Digest from the client's side (src/drivers/gerrit/http-digest.ts) against the worked
 * examples of RFC 2617 (section 3.5), RFC 7616 (section 3.9.1) and RFC 2069 (no qop).
 */
import {
  type AuthChallenge,
  digestAuthorization,
  digestChallenge,
  DigestUnsupportedError,
  parseChallenges,
} from '../../../src/drivers/gerrit/http-digest';

/** The Digest challenge of a header the test knows has one. */
function challengeOf(header: string): AuthChallenge {
  const challenge = digestChallenge(header);
  if (challenge === null) {
    throw new Error(`no Digest challenge in ${header}`);
  }
  return challenge;
}

/** The fields of an `Authorization: Digest ...` header. */
function fields(header: string): Record<string, string> {
  expect(header.startsWith('Digest ')).toBe(true);
  return parseChallenges(header)[0].params;
}

describe('Digest challenges', () => {
  it('parses several challenges, quoted strings with commas and escapes', () => {
    expect(
      parseChallenges(
        'Basic realm="Gerrit, Code Review", Digest realm="a \\"b\\"",qop="auth,auth-int", nonce=abc123, stale=TRUE',
      ),
    ).toEqual([
      { scheme: 'Basic', params: { realm: 'Gerrit, Code Review' } },
      { scheme: 'Digest', params: { realm: 'a "b"', qop: 'auth,auth-int', nonce: 'abc123', stale: 'TRUE' } },
    ]);
  });

  it('finds the Digest challenge, and none in a Basic-only or garbled header', () => {
    expect(digestChallenge('Negotiate abc==, DIGEST nonce="n"')?.params).toEqual({ nonce: 'n' });
    expect(digestChallenge('Basic realm="x"')).toBeNull();
    expect(digestChallenge(null)).toBeNull();
    expect(digestChallenge('=,,"" ==')).toBeNull();
  });
});

describe('Digest answers', () => {
  it('RFC 2617 3.5: MD5, qop auth (Mufasa)', () => {
    const challenge = challengeOf(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    const answer = fields(
      digestAuthorization(challenge, {
        method: 'GET',
        uri: '/dir/index.html',
        username: 'Mufasa',
        password: 'Circle Of Life',
        nc: 1,
        cnonce: '0a4f113b',
      }),
    );
    expect(answer).toEqual({
      username: 'Mufasa',
      realm: 'testrealm@host.com',
      nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
      uri: '/dir/index.html',
      algorithm: 'MD5',
      response: '6629fae49393a05397450978507c4ef1',
      opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      qop: 'auth',
      nc: '00000001',
      cnonce: '0a4f113b',
    });
  });

  const rfc7616 = (algorithm: string) =>
    challengeOf(
      `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
    );
  const rfc7616Request = {
    method: 'GET',
    uri: '/dir/index.html',
    username: 'Mufasa',
    password: 'Circle of Life',
    nc: 1,
    cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  };

  it('RFC 7616 3.9.1: MD5 and SHA-256', () => {
    expect(fields(digestAuthorization(rfc7616('MD5'), rfc7616Request)).response).toBe(
      '8ca523f5e9506fed4657c9700eebdbec',
    );
    const sha = fields(digestAuthorization(rfc7616('SHA-256'), rfc7616Request));
    expect(sha.response).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
    expect(sha.algorithm).toBe('SHA-256');
  });

  it('MD5-sess hashes the nonce and cnonce into HA1', () => {
    const plain = fields(digestAuthorization(rfc7616('MD5'), rfc7616Request)).response;
    const sess = fields(digestAuthorization(rfc7616('MD5-sess'), rfc7616Request));
    expect(sess.algorithm).toBe('MD5-sess');
    expect(sess.response).toMatch(/^[0-9a-f]{32}$/);
    expect(sess.response).not.toBe(plain);
  });

  it('RFC 2069: no qop, no nonce count', () => {
    // RFC 2069's own example: Mufasa at testrealm@host.com, GET /dir/index.html.
    const answer = fields(
      digestAuthorization(
        challengeOf(
          'Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
        ),
        { method: 'GET', uri: '/dir/index.html', username: 'Mufasa', password: 'CircleOfLife', nc: 1 },
      ),
    );
    expect(answer.response).toBe('1949323746fe6a43ef61f9606e7febea');
    expect(answer.qop).toBeUndefined();
    expect(answer.nc).toBeUndefined();
  });

  it('counts the nonce in hex, quotes a username with quotes, and makes a fresh cnonce', () => {
    const challenge = rfc7616('MD5');
    const first = fields(digestAuthorization(challenge, { ...rfc7616Request, cnonce: undefined, nc: 26 }));
    const second = fields(
      digestAuthorization(challenge, { ...rfc7616Request, cnonce: undefined, nc: 27, username: 'a "q" \\ b' }),
    );
    expect(first.nc).toBe('0000001a');
    expect(second.username).toBe('a "q" \\ b');
    expect(first.cnonce).not.toBe(second.cnonce);
  });

  it('refuses what it cannot answer', () => {
    const request = { ...rfc7616Request };
    expect(() => digestAuthorization(rfc7616('SHA-512-256'), request)).toThrow(DigestUnsupportedError);
    expect(() => digestAuthorization(challengeOf('Digest realm="r", nonce="n", qop="auth-int"'), request)).toThrow(
      /qop auth-int/,
    );
    expect(() => digestAuthorization(challengeOf('Digest realm="r"'), request)).toThrow(/no nonce/);
  });
});
