/**
 * `npm run bench -- NAME [ARGS...]` runs bench/NAME.ts (with its arguments); `npm run bench`
 * alone lists the benchmarks with the first line of their description. Files other benchmarks
 * import (bench-database.ts, synthetic-status.ts, ...) are helpers, not listed.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = __dirname;

function benchmarks(): { name: string; summary: string }[] {
  const files = readdirSync(dir).filter((file) => file.endsWith('.ts') && file !== 'run.ts');
  const sources = new Map(files.map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]));
  const imported = new Set<string>();
  for (const text of sources.values()) {
    for (const match of text.matchAll(/from '\.\/([\w-]+)'|import '\.\/([\w-]+)'/g)) {
      imported.add(`${match[1] ?? match[2]}.ts`);
    }
  }
  return files
    .filter((file) => !imported.has(file))
    .map((file) => {
      const comment = /\/\*\*\s*\n?\s*\*?\s*([^\n]*)/.exec(sources.get(file) ?? '');
      return { name: file.replace(/\.ts$/, ''), summary: comment?.[1]?.trim() ?? '' };
    });
}

function main(): number {
  const [name, ...args] = process.argv.slice(2);
  const known = benchmarks();
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write('Usage: npm run bench -- NAME [ARGS...]\n\nBenchmarks (bench/NAME.ts):\n');
    for (const bench of known) {
      process.stdout.write(`  ${bench.name.padEnd(24)} ${bench.summary}\n`);
    }
    return name === undefined ? 2 : 0;
  }
  const bench = known.find((candidate) => candidate.name === name.replace(/^bench\//, '').replace(/\.ts$/, ''));
  if (bench === undefined) {
    process.stderr.write(`bench: no benchmark "${name}" (npm run bench lists them)\n`);
    return 2;
  }
  const tsx = path.join(dir, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const run = spawnSync(process.execPath, [tsx, path.join(dir, `${bench.name}.ts`), ...args], { stdio: 'inherit' });
  return run.status ?? 1;
}

process.exitCode = main();
