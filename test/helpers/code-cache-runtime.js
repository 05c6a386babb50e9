// jest runtime (jest.config.js `runtime`) that keeps V8's compiled code of every module it runs,
// across test files and runs. jest compiles each module again in every test file's fresh vm
// context: for a file that boots the server that is over a thousand modules and, on the shared
// 2-core machine, about a fifth of the file's CPU, paid again by each of ~300 files
// (docs/development.md#v8-code-cache). Here a module's code is compiled from V8's code cache when
// one is kept for exactly its source, and once a test file is done the code of the modules it ran
// (the functions it called included) is serialised for the next files: in memory for the files
// of this worker, on disk (node_modules/.cache/sluice-jest-v8) for other workers and runs. A cache
// V8 rejects (another Node.js version or V8 flags) is just compiled from the source and replaced.
/* eslint-disable @typescript-eslint/no-require-imports */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;
const { protectProperties } = require('jest-util');

// V8 checks its flags against a code cache's: src/store/pglite.ts sets this one in any process
// that opens an embedded store, so it is set from the start and every file of a worker compiles
// under the same flags.
v8.setFlagsFromString('--liftoff-only');

const CACHE_DIR = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'sluice-jest-v8');
/** Above this many bytes the cache is emptied at the start of a run (each edit of a source adds an entry). */
const CACHE_LIMIT_BYTES = 512 * 1024 * 1024;
const VERSION_TAG = `${process.version}-${process.arch}`;

/** Per file name, the source last compiled in this worker and its code cache. */
const kept = new Map();

/**
 * What the test files of this worker share (test/helpers/database.ts: the parsed template
 * cluster), as `globalThis.sluiceWorkerCache` in every file's context. jest empties what a file
 * set on its global at the file's teardown; this map is protected from that (it outlives files).
 */
const workerCache = new Map();
protectProperties(workerCache);

function diskFile(filename, source) {
  const key = crypto
    .createHash('sha1')
    .update(VERSION_TAG)
    .update('\0')
    .update(filename)
    .update('\0')
    .update(source)
    .digest('hex');
  return path.join(CACHE_DIR, key);
}

/** The code cache kept for exactly this source of `filename`, if any. */
function readCache(filename, source) {
  const held = kept.get(filename);
  if (held !== undefined && held.source === source) {
    return held.data;
  }
  try {
    const data = fs.readFileSync(diskFile(filename, source));
    kept.set(filename, { source, data });
    return data;
  } catch {
    return undefined;
  }
}

function writeCache(filename, source, data) {
  kept.set(filename, { source, data });
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const file = diskFile(filename, source);
    const draft = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(draft, data);
    fs.renameSync(draft, file); // whole or not at all: other workers read it
  } catch {
    // A read-only node_modules: this worker keeps its caches in memory only.
  }
}

/**
 * A module's source as a script whose value is the function jest calls with `parameters`
 * (ModuleExecutor.compile's), from `cachedData` when V8 accepts it. The wrapper is on the source's
 * first line, so line numbers stay those of the source and its source map.
 */
function compileWrapped(source, filename, parameters, cachedData, importModuleDynamically) {
  return new vm.Script(`(function (${parameters.join(', ')}) {${source}\n})`, {
    filename,
    cachedData,
    importModuleDynamically,
  });
}

class CodeCacheRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    this._environment.global.sluiceWorkerCache = workerCache;
    /** Modules compiled without an accepted cache in this file: serialised at its teardown. */
    this.uncached = [];
    const executor = this.executor;
    const compileFromSource = executor.compile.bind(executor);
    executor.compile = (source, filename) => this.compileCached(executor, compileFromSource, source, filename);
  }

  compileCached(executor, compileFromSource, source, filename) {
    const context = this._environment.getVmContext();
    // A function compiled from a code cache loses the script's dynamic import callback (V8 keeps
    // the first compilation's), so a module that may import() is always compiled from source.
    if (context == null || executor.resolution.isCoreModule(filename) || source.includes('import(')) {
      return compileFromSource(source, filename);
    }
    const cachedData = readCache(filename, source);
    let script;
    try {
      script = compileWrapped(
        source,
        filename,
        executor.injectedModuleParameters,
        cachedData,
        (specifier, _script, importAttributes, phase) =>
          executor.dynamicImport(specifier, filename, context, importAttributes, phase),
      );
    } catch {
      return compileFromSource(source, filename); // jest's own path gives jest's own errors
    }
    if (cachedData === undefined || script.cachedDataRejected) {
      this.uncached.push({ filename, source, script });
    }
    return script.runInContext(context);
  }

  teardown() {
    for (const { filename, source, script } of this.uncached) {
      writeCache(filename, source, script.createCachedData());
    }
    this.uncached = [];
    super.teardown();
  }
}

/** Empty the disk cache when it has grown past its limit (jest's globalSetup, before any worker starts). */
function pruneCodeCache() {
  let total = 0;
  try {
    for (const entry of fs.readdirSync(CACHE_DIR)) {
      total += fs.statSync(path.join(CACHE_DIR, entry)).size;
    }
  } catch {
    return; // no cache yet
  }
  if (total > CACHE_LIMIT_BYTES) {
    fs.rmSync(CACHE_DIR, { recursive: true, force: true });
  }
}

module.exports = CodeCacheRuntime;
module.exports.pruneCodeCache = pruneCodeCache;
module.exports.compileWrapped = compileWrapped;
