/** The configuration YAML reader: items, marks, custom tags, merge keys and duplicate keys. */
import { EncryptedValue, keyLine, OverrideControl, parseConfigFile } from '../../../src/config/yaml-source';

describe('parseConfigFile', () => {
  it('returns single-key items with marks and key lines', () => {
    const parsed = parseConfigFile('# header\n- job:\n    name: a\n    run: a.sh\n\n- nodeset:\n    name: n\n');
    expect(parsed.problems).toEqual([]);
    expect(parsed.items.map((i) => [i.key, i.mark.line, i.mark.endLine])).toEqual([
      ['job', 2, 4],
      ['nodeset', 6, 7],
    ]);
    expect(parsed.items[0].mark.snippet).toBe('- job:\n    name: a\n    run: a.sh');
    expect(keyLine(parsed.items[0].body, 'run')).toBe(4);
  });

  it('keeps !override, !inherit and !encrypted/pkcs1-oaep values as typed wrappers', () => {
    const parsed = parseConfigFile(
      '- job:\n    vars: !override {a: 1}\n    files: !inherit [x]\n    tags: !override solo\n- secret:\n    data:\n      one: !encrypted/pkcs1-oaep QUJD\n      many: !encrypted/pkcs1-oaep\n        - QUJD\n        - REVG\n',
    );
    const job = parsed.items[0].body as Record<string, unknown>;
    expect(job.vars).toEqual(new OverrideControl('override', { a: 1 }));
    expect(job.files).toEqual(new OverrideControl('inherit', ['x']));
    expect(job.tags).toEqual(new OverrideControl('override', 'solo'));
    const data = (parsed.items[1].body as { data: Record<string, unknown> }).data;
    expect(data.one).toEqual(new EncryptedValue(['QUJD']));
    expect(data.many).toEqual(new EncryptedValue(['QUJD', 'REVG']));
  });

  it('resolves anchors and merge keys, explicit keys winning', () => {
    const parsed = parseConfigFile(
      '- job:\n    name: base-vars\n    vars: &common {a: 1, b: 2}\n- job:\n    name: x\n    vars:\n      <<: *common\n      b: 3\n',
    );
    expect((parsed.items[1].body as { vars: unknown }).vars).toEqual({ a: 1, b: 3 });
  });

  it('reports structural problems per item and keeps the other items', () => {
    const parsed = parseConfigFile(
      '- job: {name: ok}\n- job:\n    name: x\n    name: y\n- plain\n- {job: {}, nodeset: {}}\n- {}\n',
    );
    expect(parsed.items.map((i) => i.key)).toEqual(['job']);
    expect(parsed.problems.map((p) => [p.message, p.line])).toEqual([
      ['The key "name" appears more than once; duplicate keys are not permitted.', 4],
      ['Configuration item is not a dictionary', 5],
      ['Configuration item has more than one key: job, nodeset', 6],
      ['Configuration item is empty', 7],
    ]);
  });

  it('treats an empty file as no items and a YAML syntax error as a problem', () => {
    expect(parseConfigFile('')).toEqual({ items: [], problems: [] });
    expect(parseConfigFile('# only a comment\n')).toEqual({ items: [], problems: [] });
    const broken = parseConfigFile('- job: [unclosed\n');
    expect(broken.items).toEqual([]);
    expect(broken.problems).toHaveLength(1);
  });
});
