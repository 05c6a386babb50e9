import { BoundedMemo } from '../../../src/config/bounded-memo';

describe('BoundedMemo', () => {
  it('computes a key once, also for concurrent callers', async () => {
    const memo = new BoundedMemo<number>(4);
    let computed = 0;
    const compute = async () => {
      computed += 1;
      return 42;
    };
    expect(await Promise.all([memo.get('a', compute), memo.get('a', compute)])).toEqual([42, 42]);
    expect(await memo.get('a', compute)).toBe(42);
    expect(computed).toBe(1);
  });

  it('keeps at most its capacity, dropping the least recently used key', async () => {
    const memo = new BoundedMemo<string>(2);
    const computed: string[] = [];
    const value = (key: string) => async () => {
      computed.push(key);
      return key;
    };
    await memo.get('a', value('a'));
    await memo.get('b', value('b'));
    await memo.get('a', value('a')); // a is now the most recently used
    await memo.get('c', value('c')); // evicts b
    expect(memo.size).toBe(2);
    await memo.get('a', value('a'));
    await memo.get('b', value('b'));
    expect(computed).toEqual(['a', 'b', 'c', 'b']);
  });

  it('forgets a failed computation, so the next call tries again', async () => {
    const memo = new BoundedMemo<string>(2);
    await expect(memo.get('a', async () => Promise.reject(new Error('git failed')))).rejects.toThrow('git failed');
    expect(await memo.get('a', async () => 'ok')).toBe('ok');
  });
});
