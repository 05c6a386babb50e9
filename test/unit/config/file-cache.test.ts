/** The generational snapshot cache used by the LayoutManager. */
import { GenerationalFileCache } from '../../../src/config/tenant-loader';

const snapshot = (path: string) => ({ files: [{ path, text: '' }], ignoredLocations: [] });

describe('GenerationalFileCache', () => {
  it('keeps what the last generation used and drops the rest on rotation', () => {
    const cache = new GenerationalFileCache();
    cache.set('a', snapshot('a'));
    cache.set('b', snapshot('b'));
    cache.rotate();
    expect(cache.get('a')?.files[0].path).toBe('a');
    cache.rotate();
    expect(cache.get('a')?.files[0].path).toBe('a');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
