// The suite's jest runtime compiles modules from V8's code cache (test/helpers/code-cache-runtime.js):
// what it runs must be what jest would run, with the same line numbers in stack traces.
import vm from 'node:vm';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../helpers/code-cache-runtime.js') as {
  compileWrapped(
    source: string,
    filename: string,
    parameters: string[],
    cachedData: Buffer | undefined,
    importModuleDynamically: () => never,
  ): vm.Script;
};

const SOURCE = [
  "'use strict';",
  'let calls = 0;',
  'exports.next = () => (calls += 1) * step;',
  "exports.line = () => new Error('here').stack.split('\\n')[1];",
].join('\n');

/** Run SOURCE as a module compiled by the runtime's wrapper, in a fresh context. */
function load(cachedData?: Buffer): { script: vm.Script; module: { next(): number; line(): string } } {
  const noImport = (): never => {
    throw new Error('no import() here');
  };
  const script = runtime.compileWrapped(
    SOURCE,
    '/virtual/counter.js',
    ['module', 'exports', 'step'],
    cachedData,
    noImport,
  );
  const fn = script.runInContext(vm.createContext({})) as (module: unknown, exports: object, step: number) => void;
  const exports = {} as { next(): number; line(): string };
  fn({ exports }, exports, 10);
  return { script, module: exports };
}

describe('the code-cache runtime', () => {
  it('is the runtime of the suite', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect((require('../../jest.config.js') as { runtime: string }).runtime).toBe(
      '<rootDir>/test/helpers/code-cache-runtime.js',
    );
  });

  it('runs a module the same from source and from its code cache, lines and strict mode kept', () => {
    const first = load();
    expect([first.module.next(), first.module.next()]).toEqual([10, 20]);
    expect(first.module.line()).toMatch(/counter\.js:4:\d+/);
    const cache = first.script.createCachedData();
    const second = load(cache);
    expect(second.script.cachedDataRejected).toBe(false);
    expect([second.module.next(), second.module.next()]).toEqual([10, 20]);
    expect(second.module.line()).toMatch(/counter\.js:4:\d+/);
    // 'use strict' at the top of the source still makes the module strict inside the wrapper.
    const strict = runtime.compileWrapped(
      "'use strict'; exports.t = (function () { return this; })();",
      '/virtual/s.js',
      ['exports'],
      undefined,
      () => {
        throw new Error('unused');
      },
    );
    const exports: { t?: unknown } = {};
    (strict.runInContext(vm.createContext({})) as (exports: object) => void)(exports);
    expect(exports.t).toBeUndefined();
  });

  it('reports a cache made for another source as rejected', () => {
    const other = new vm.Script('(function () { return 1; })').createCachedData();
    expect(load(other).script.cachedDataRejected).toBe(true);
  });
});
