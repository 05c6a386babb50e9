/** Stored engine-state JSON read through `StoredJson` (src/store/repositories/engine-state-json.ts). */
import { z } from 'zod';
import { InvalidEngineStateError, StoredJson } from '../../../src/store/repositories/engine-state-json';

const schema = z.object({ name: z.string(), tries: z.number() });

describe('StoredJson', () => {
  it('checks a text the first time it reads it and returns the value as stored', () => {
    const parse = jest.spyOn(schema, 'safeParse');
    const stored = new StoredJson(schema);
    const text = JSON.stringify({ name: 'unit', tries: 1, addedLater: true });
    expect(stored.read(text, () => 'row 1')).toEqual({ name: 'unit', tries: 1, addedLater: true });
    expect(stored.read(text, () => 'row 1')).toEqual({ name: 'unit', tries: 1, addedLater: true });
    expect(parse).toHaveBeenCalledTimes(1);
    // A changed row is a new text: checked again.
    stored.read(JSON.stringify({ name: 'unit', tries: 2 }), () => 'row 1');
    expect(parse).toHaveBeenCalledTimes(2);
    parse.mockRestore();
  });

  it('refuses a text that does not match, every time, naming the row and the field', () => {
    const stored = new StoredJson(schema);
    const text = JSON.stringify({ name: 'unit', tries: 'two' });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(() => stored.read(text, () => 'tenant t, job unit')).toThrow(
        new InvalidEngineStateError('tenant t, job unit', schema.safeParse(JSON.parse(text)).error as z.ZodError),
      );
    }
    expect(() => stored.read(text, () => 'tenant t, job unit')).toThrow(
      /^Invalid stored engine state \(tenant t, job unit\) at tries: /,
    );
  });

  it('forgets the oldest texts beyond its length bound', () => {
    const parse = jest.spyOn(schema, 'safeParse');
    const first = JSON.stringify({ name: 'a', tries: 1 });
    const second = JSON.stringify({ name: 'b', tries: 1 });
    const stored = new StoredJson(schema, first.length + second.length - 1);
    stored.read(first, () => 'first');
    stored.read(second, () => 'second'); // over the bound: the first is forgotten
    stored.read(second, () => 'second');
    expect(parse).toHaveBeenCalledTimes(2);
    stored.read(first, () => 'first');
    expect(parse).toHaveBeenCalledTimes(3);
    parse.mockRestore();
  });

  it('checks a value the driver already parsed each time', () => {
    const stored = new StoredJson(schema);
    expect(stored.read({ name: 'unit', tries: 1 }, () => 'row')).toEqual({ name: 'unit', tries: 1 });
    expect(() => stored.read({ name: 3 }, () => 'row')).toThrow(InvalidEngineStateError);
  });
});
