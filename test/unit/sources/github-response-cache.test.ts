/** The bounds of the GitHub client's caches (docs/github.md#reads-and-their-cost). */
import { LruMap } from '../../../src/drivers/github/lru';
import { ResponseCache } from '../../../src/drivers/github/response-cache';

const withEtag = (etag: string) => new Headers({ etag });

describe('LruMap', () => {
  it('forgets the least recently used entry when full', () => {
    const removed: string[] = [];
    const map = new LruMap<string, number>(2, (key) => removed.push(key));
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1); // a is now the most recently used
    map.set('c', 3);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(1);
    expect(map.get('c')).toBe(3);
    expect(map.size).toBe(2);
    expect(removed).toEqual(['b']);
  });

  it('refuses a capacity below one', () => {
    expect(() => new LruMap(0)).toThrow('capacity of at least 1');
  });
});

describe('ResponseCache', () => {
  it('keeps answers with a validator within its entry and byte bounds', () => {
    const cache = new ResponseCache({ maxEntries: 3, maxBytes: 10 });
    cache.store('/a', withEtag('"1"'), 'aaaa');
    cache.store('/b', withEtag('"2"'), 'bbbb');
    expect(cache.byteSize).toBe(8);
    cache.store('/c', withEtag('"3"'), 'cccc'); // 12 bytes: /a goes
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.byteSize).toBe(8);
    cache.store('/b', withEtag('"4"'), 'bb'); // replaced, not counted twice
    expect(cache.byteSize).toBe(6);
    expect(cache.get('/b')).toEqual({ etag: '"4"', lastModified: null, text: 'bb' });
    cache.store('/huge', withEtag('"5"'), 'x'.repeat(11)); // larger than the budget: not kept
    expect(cache.get('/huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('keeps nothing without a validator, and forgets the old answer of that path', () => {
    const cache = new ResponseCache({ maxEntries: 3, maxBytes: 100 });
    cache.store('/a', withEtag('"1"'), 'old');
    cache.store('/a', new Headers(), 'new');
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.byteSize).toBe(0);
  });

  it('asks with If-None-Match, or If-Modified-Since when only a date was given', () => {
    expect(ResponseCache.conditionalHeaders(undefined)).toEqual({});
    expect(ResponseCache.conditionalHeaders({ etag: 'W/"x"', lastModified: 'd', text: '' })).toEqual({
      'if-none-match': 'W/"x"',
    });
    expect(ResponseCache.conditionalHeaders({ etag: null, lastModified: 'Tue, 1 Dec', text: '' })).toEqual({
      'if-modified-since': 'Tue, 1 Dec',
    });
  });
});
