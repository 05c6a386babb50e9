/**
 * The log browser's reading of `zuul-manifest.json` (web/src/logs/manifest.ts): the reference's
 * tree format, malformed entries left out, paths, URLs under the log URL and what opens in the page.
 */
import {
  ancestors,
  entryUrl,
  findEntry,
  formatSize,
  manifestArtifact,
  parseManifest,
  resolveLogUrl,
  viewable,
  type LogManifest,
} from '../../../web/src/logs/manifest';

const REFERENCE_MANIFEST = {
  tree: [
    {
      name: 'zuul-info',
      mimetype: 'application/directory',
      encoding: null,
      children: [{ name: 'inventory.yaml', mimetype: 'text/plain', encoding: null, last_modified: 1, size: 1976 }],
    },
    { name: 'job-output.json.gz', mimetype: 'application/json', encoding: 'gzip', last_modified: 1, size: 1782 },
    { name: 'job-output.txt', mimetype: 'text/plain', encoding: null, last_modified: 1, size: 714 },
    { name: 'big log.txt', mimetype: 'text/plain', encoding: null, size: 6 * 1024 * 1024 },
  ],
  index_links: false,
};

function parsed(json: unknown): LogManifest {
  const manifest = parseManifest(json);
  if (manifest instanceof Error) {
    throw manifest;
  }
  return manifest;
}

describe('log manifest', () => {
  it('reads the reference format into paths', () => {
    const manifest = parsed(REFERENCE_MANIFEST);
    expect(manifest.indexLinks).toBe(false);
    expect(manifest.tree.map((entry) => entry.path)).toEqual([
      'zuul-info',
      'job-output.json.gz',
      'job-output.txt',
      'big log.txt',
    ]);
    expect(findEntry(manifest.tree, 'zuul-info/inventory.yaml')).toEqual({
      name: 'inventory.yaml',
      path: 'zuul-info/inventory.yaml',
      mimetype: 'text/plain',
      encoding: null,
      size: 1976,
    });
    expect(findEntry(manifest.tree, 'zuul-info/missing')).toBeUndefined();
    expect(findEntry(manifest.tree, 'job-output.txt/below')).toBeUndefined();
  });

  it('refuses what is not a manifest and leaves malformed entries out', () => {
    expect(parseManifest(null)).toBeInstanceOf(Error);
    expect(parseManifest({ tree: 'no' })).toBeInstanceOf(Error);
    const manifest = parsed({
      tree: [
        { name: '../escape', mimetype: 'text/plain' },
        { name: '..', mimetype: 'text/plain' },
        { mimetype: 'text/plain' },
        'text',
        { name: 'dir', children: [{ name: 'a.txt', mimetype: 'text/plain', size: 'big' }] },
      ],
      index_links: true,
    });
    expect(manifest.tree).toEqual([
      {
        name: 'dir',
        path: 'dir',
        mimetype: 'application/directory',
        encoding: null,
        size: null,
        children: [{ name: 'a.txt', path: 'dir/a.txt', mimetype: 'text/plain', encoding: null, size: null }],
      },
    ]);
    expect(manifest.indexLinks).toBe(true);
  });

  it('opens plain, uncompressed, not too big files in the page and links the others', () => {
    const { tree } = parsed(REFERENCE_MANIFEST);
    expect(tree.map((entry) => [entry.name, viewable(entry)])).toEqual([
      ['zuul-info', false],
      ['job-output.json.gz', false],
      ['job-output.txt', true],
      ['big log.txt', false],
    ]);
  });

  it('makes URLs under the log URL, segments encoded, folders per index_links', () => {
    const { tree } = parsed(REFERENCE_MANIFEST);
    const log = 'https://logs.example.com/t/ab/abc/';
    expect(entryUrl(log, tree[3], false)).toBe('https://logs.example.com/t/ab/abc/big%20log.txt');
    expect(entryUrl(log, tree[0], false)).toBe('https://logs.example.com/t/ab/abc/zuul-info/');
    expect(entryUrl(log, tree[0], true)).toBe('https://logs.example.com/t/ab/abc/zuul-info/index.html');
    expect(resolveLogUrl('zuul-manifest.json', '/logs/t/ab/abc/', 'http://sluice:9000/t/t/build/abc')).toBe(
      'http://sluice:9000/logs/t/ab/abc/zuul-manifest.json',
    );
    expect(resolveLogUrl('https://elsewhere/m.json', '/logs/x/', 'http://sluice:9000/')).toBe(
      'https://elsewhere/m.json',
    );
    expect(ancestors('a/b/c.txt')).toEqual(['a', 'a/b']);
    expect(ancestors('c.txt')).toEqual([]);
  });

  it('finds the manifest artifact by its metadata type', () => {
    const artifacts = [
      { name: 'docs', url: 'docs/', metadata: null },
      { name: 'Zuul Manifest', url: 'zuul-manifest.json', metadata: { type: 'zuul_manifest' } },
    ];
    expect(manifestArtifact(artifacts)?.name).toBe('Zuul Manifest');
    expect(manifestArtifact(artifacts.slice(0, 1))).toBeUndefined();
    expect(formatSize(714)).toBe('714 B');
    expect(formatSize(1976)).toBe('1.9 KiB');
    expect(formatSize(6 * 1024 * 1024)).toBe('6.0 MiB');
  });
});
