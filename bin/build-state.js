// Whether the compiled build in dist/ (`npm run build`, scripts/build-server.js) matches the
// TypeScript sources: bin/sluice.js runs it only then, and the build skips itself then.
// The stamp dist/.build-stamp is written last by the build; it records how many source files
// there were, and every source file must be older than it.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const SOURCE_DIRS = ['src', 'schema', 'rest-compat', 'subscriptions'];
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-stamp');

/** Every .ts source file of the server, and the newest modification time among them and tsconfig.json. */
function sourceState() {
  const files = [];
  let newest = fs.statSync(path.join(ROOT, 'tsconfig.json')).mtimeMs;
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        files.push(full);
        newest = Math.max(newest, fs.statSync(full).mtimeMs);
      }
    }
  };
  for (const dir of SOURCE_DIRS) {
    visit(path.join(ROOT, dir));
  }
  return { files, newest };
}

/** True when dist/ holds a build of the current sources. */
function compiledIsFresh() {
  let stamp;
  try {
    stamp = { text: fs.readFileSync(STAMP, 'utf8'), mtimeMs: fs.statSync(STAMP).mtimeMs };
  } catch {
    return false;
  }
  const state = sourceState();
  return stamp.text.trim() === `files ${state.files.length}` && state.newest <= stamp.mtimeMs;
}

module.exports = { ROOT, DIST, STAMP, sourceState, compiledIsFresh };
