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
const esbuild = require('esbuild');

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
