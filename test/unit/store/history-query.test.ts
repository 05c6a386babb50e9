/** Pure helpers of the build-history store and connections: wildcards, cursors, paging args. */
import { wildcardToLike } from '../../../src/store/repositories/history-query';
import { endTimeCursor, idCursor, keysetPageFromArgs, MAX_PAGE_SIZE } from '../../../schema/infra/pagination';

describe('wildcardToLike', () => {
  it('turns * into % and escapes LIKE metacharacters', () => {
    expect(wildcardToLike('org/*')).toBe('org/%');
    expect(wildcardToLike('*-merge')).toBe('%-merge');
    expect(wildcardToLike('%mast_r*')).toBe('\\%mast\\_r%');
    expect(wildcardToLike('a\\b*')).toBe('a\\\\b%');
  });
});

describe('cursors', () => {
  it('round-trips ids and end-time keys', () => {
    expect(idCursor.decode(idCursor.encode(42))).toBe(42);
    const key = { endTime: new Date('2026-01-02T03:04:05.678Z'), id: 7 };
    expect(endTimeCursor.decode(endTimeCursor.encode(key))).toEqual(key);
  });

  it('rejects cursors of another kind or garbage', () => {
    expect(() => idCursor.decode(endTimeCursor.encode({ endTime: new Date(0), id: 1 }))).toThrow('Invalid cursor');
    expect(() => endTimeCursor.decode(idCursor.encode(1))).toThrow('Invalid cursor');
    expect(() => idCursor.decode('not a cursor')).toThrow('Invalid cursor');
  });
});

describe('keysetPageFromArgs', () => {
  it('defaults to 50, clamps to the maximum and asks for one extra row', () => {
    expect(keysetPageFromArgs({}, idCursor)).toEqual({
      size: 50,
      page: { after: undefined, before: undefined, limit: 51, offset: 0, fromEnd: false },
    });
    expect(keysetPageFromArgs({ first: 5000 }, idCursor).size).toBe(MAX_PAGE_SIZE);
    expect(keysetPageFromArgs({ last: 3, before: idCursor.encode(9), offset: 2 }, idCursor)).toEqual({
      size: 3,
      page: { after: undefined, before: 9, limit: 4, offset: 2, fromEnd: true },
    });
  });

  it('rejects negative sizes and first with last', () => {
    expect(() => keysetPageFromArgs({ first: -1 }, idCursor)).toThrow('`first` must not be negative.');
    expect(() => keysetPageFromArgs({ offset: -1 }, idCursor)).toThrow('`offset` must not be negative.');
    expect(() => keysetPageFromArgs({ first: 1, last: 1 }, idCursor)).toThrow(
      'Pass either `first` or `last`, not both.',
    );
  });
});
