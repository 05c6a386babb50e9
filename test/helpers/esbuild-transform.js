// jest transform for the suite's TypeScript (jest.config.js): esbuild's transformSync, one file at
// a time, into CommonJS (what jest runs under this config) with the options the server's build
// uses (scripts/build-server.js: cjs, node, node20, the compiler options of tsconfig.json, such as
// `strict`, which makes the output strict mode like tsc's). No type check here: `npm run
// typecheck` does that. The inline source map makes the stack traces and line numbers of a
// failure point at the TypeScript source. It replaced ts-jest, whose transpile was about a fifth
// of the CPU of a file run with a cold cache (docs/development.md#how-the-suite-is-transformed).
/* eslint-disable @typescript-eslint/no-require-imports */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

// esbuild's synchronous calls in node otherwise go through a worker thread that the calling
// thread waits for with Atomics.wait, with no time limit. A CI run hung with its last test file
// never started and the jest worker holding it blocked in a futex wait, which is how that wait
// looks from outside (docs/development.md#how-the-suite-is-transformed). "0" makes each call run
// esbuild as a child process of its own, which ends or fails. Set only while esbuild loads (it
// reads the variable then), so that the processes the tests start keep their own.
const esbuild = withEnv('ESBUILD_WORKER_THREADS', '0', () => require('esbuild'));

/** `load()` with the environment variable `name` set to `value`, restored after. */
function withEnv(name, value, load) {
  const before = process.env[name];
  process.env[name] = value;
  try {
    return load();
  } finally {
    if (before === undefined) {
      delete process.env[name];
    } else {
      process.env[name] = before;
    }
  }
}

const tsconfig = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'tsconfig.json'), 'utf8'));

const options = {
  loader: 'ts',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: 'inline',
  tsconfigRaw: { compilerOptions: tsconfig.compilerOptions },
};

// What the output depends on besides the file: this transformer's own source, esbuild's version and
// the options above (tsconfig.json included), so jest's cache is refreshed when any of them changes.
const transformerKey = crypto
  .createHash('sha256')
  .update(fs.readFileSync(module.filename))
  .update('\0')
  .update(esbuild.version)
  .update('\0')
  .update(JSON.stringify(options))
  .digest('hex');

module.exports = {
  process(sourceText, sourcePath) {
    const { code } = esbuild.transformSync(sourceText, { ...options, sourcefile: sourcePath });
    return { code };
  },

  getCacheKey(sourceText, sourcePath, transformOptions) {
    return crypto
      .createHash('sha256')
      .update(transformerKey)
      .update('\0')
      .update(sourceText)
      .update('\0')
      .update(sourcePath)
      .update('\0')
      .update(transformOptions.configString)
      .update('\0')
      .update(transformOptions.instrument ? 'instrument' : '')
      .digest('hex');
  },
};
