// A jest reporter that ends the run with the test files whose tests were skipped and why: one
// line per reason, read from the titles test/helpers/preconditions.ts gives skipped tests
// ("[skipped: <reason>]"); tests skipped without such a title are listed as "no reason given".
const MARK = /\[skipped: (.*)\]$/;

class SkippedReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    // With -t, the tests it leaves out count as skipped too: only marked ones are reported then.
    this.filtered = Boolean(globalConfig.testNamePattern);
  }

  onRunComplete(_contexts, results) {
    /** reason -> Map(file -> skipped tests) */
    const byReason = new Map();
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending' && test.status !== 'skipped' && test.status !== 'todo') {
          continue;
        }
        const titles = [...test.ancestorTitles, test.title];
        const reason = titles.map((title) => MARK.exec(title)?.[1]).find(Boolean);
        if (reason === undefined && this.filtered) {
          continue;
        }
        const files = byReason.get(reason ?? 'no reason given') ?? new Map();
        const name = file.testFilePath.startsWith(`${this.rootDir}/`)
          ? file.testFilePath.slice(this.rootDir.length + 1)
          : file.testFilePath;
        files.set(name, (files.get(name) ?? 0) + 1);
        byReason.set(reason ?? 'no reason given', files);
      }
    }
    const lines = [...byReason].map(
      ([reason, files]) => `Skipped, ${reason}: ${[...files].map(([name, count]) => `${name} (${count})`).join(', ')}`,
    );
    if (lines.length === 0 && !this.filtered) {
      lines.push('Skipped: none.');
    }
    // Jest's summary reporter always reports last; these lines follow it, as the process exits.
    process.once('exit', () => {
      for (const line of lines) {
        process.stderr.write(`${line}\n`);
      }
    });
  }
}

module.exports = SkippedReporter;
