/**
 * In-memory stores started from a parsed template (src/store/pglite-memory.ts): the store holds
 * exactly the template's cluster, one tree serves any number of stores without any of them
 * seeing another's writes, and a tarball that is not a plain cluster is refused.
 */
import { Header } from 'tar';
import { openPglite, pristineTemplate } from '../../../src/store/pglite';
import { parseTemplateTree, type TemplateTree } from '../../../src/store/pglite-memory';

/** A ustar archive of `entries` (directories end with '/'). */
function tarball(
  entries: Array<{ path: string; data?: string; type?: 'File' | 'Directory' | 'SymbolicLink' }>,
): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? (entry.path.endsWith('/') ? 'Directory' : 'File');
    const data = Buffer.from(entry.data ?? '');
    const header = Buffer.alloc(512);
    new Header({
      path: entry.path,
      type,
      size: type === 'File' ? data.length : 0,
      mode: 0o644,
      mtime: new Date(0),
      linkpath: type === 'SymbolicLink' ? '/etc/passwd' : undefined,
    }).encode(header, 0);
    blocks.push(header);
    if (type === 'File') {
      blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
    }
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

describe('in-memory stores from a parsed template', () => {
  let tree: TemplateTree;
  beforeAll(async () => {
    tree = parseTemplateTree((await pristineTemplate()) as Uint8Array);
  });

  it('parses a cluster into its directories, parents first, and its files', () => {
    expect(tree.files.map((file) => file.path)).toContain('PG_VERSION');
    expect(tree.directories).toContain('base');
    expect(tree.directories.indexOf('base')).toBeLessThan(tree.directories.indexOf('base/5'));
    for (const file of tree.files) {
      const parent = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : undefined;
      expect(parent === undefined || tree.directories.includes(parent)).toBe(true);
    }
  });

  it('gives every store from one tree the template as it was, whatever an earlier store wrote', async () => {
    const first = await openPglite({ template: () => Promise.resolve(tree) });
    try {
      await first.exec("CREATE TABLE written (note text); INSERT INTO written VALUES ('first store'); CHECKPOINT");
      expect((await first.query('SELECT note FROM written')).rows).toEqual([{ note: 'first store' }]);
    } finally {
      await first.close();
    }
    const second = await openPglite({ template: () => Promise.resolve(tree) });
    try {
      expect((await second.query("SELECT to_regclass('written') AS found")).rows).toEqual([{ found: null }]);
      expect((await second.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await second.close();
    }
  });

  it('refuses an entry outside the cluster, a link, and an archive without PG_VERSION', () => {
    expect(() =>
      parseTemplateTree(
        tarball([
          { path: 'PG_VERSION', data: '18\n' },
          { path: '../escape', data: 'x' },
        ]),
      ),
    ).toThrow('points outside the cluster');
    expect(() =>
      parseTemplateTree(
        tarball([
          { path: 'PG_VERSION', data: '18\n' },
          { path: 'link', type: 'SymbolicLink' },
        ]),
      ),
    ).toThrow('unsupported type "SymbolicLink"');
    expect(() => parseTemplateTree(tarball([{ path: 'base/' }, { path: 'base/1', data: 'x' }]))).toThrow(
      'holds no PG_VERSION',
    );
    const parsed = parseTemplateTree(
      tarball([
        { path: '/PG_VERSION', data: '18\n' },
        { path: '/base/5/1', data: 'page' },
      ]),
    );
    expect(parsed.directories).toEqual(['base', 'base/5']);
    expect(parsed.files.map((file) => [file.path, Buffer.from(file.data).toString()])).toEqual([
      ['PG_VERSION', '18\n'],
      ['base/5/1', 'page'],
    ]);
  });
});
