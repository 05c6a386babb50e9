/**
 * The executor toolchain of in-process test servers (test/helpers/server.ts): its probe at start
 * (`ansible-playbook --version`, a Python start of about a second of CPU here, and two runs of
 * bwrap, src/executor/ansible/toolchain.ts) is answered once per jest run and per PATH, sandbox
 * mode and commands, then read from the run's directory (`SLUICE_TEST_RUN_DIR`,
 * test/helpers/global-setup.js) by every other file's servers. The probe itself is tested on
 * fresh toolchains (test/unit/server/health-executor.test.ts, test/unit/executor/runner-ansible.test.ts,
 * test/helpers/ansible-harness.ts). Without the directory (jest run without its globalSetup)
 * every probe runs.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AnsibleToolchain, type ToolchainOptions, type ToolchainState } from '../../src/executor/ansible/toolchain';

type ProbeAnswer = Pick<ToolchainState, 'ansible' | 'sandbox'>;

export class RunCachedToolchain extends AnsibleToolchain {
  constructor(private readonly settings: ToolchainOptions) {
    super(settings);
  }

  protected override async runProbe(): Promise<ToolchainState> {
    const file = this.answerFile();
    if (file === undefined) {
      return super.runProbe();
    }
    let answer: ProbeAnswer | undefined;
    try {
      answer = JSON.parse(readFileSync(file, 'utf8')) as ProbeAnswer;
    } catch {
      const state = await super.runProbe();
      // Written aside and renamed, so a file of the other worker never reads half an answer.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, JSON.stringify({ ansible: state.ansible, sandbox: state.sandbox }));
      renameSync(partial, file);
      return state;
    }
    this.state = { ...this.state, ansible: answer.ansible, sandbox: answer.sandbox };
    return this.current();
  }

  private answerFile(): string | undefined {
    const dir = process.env.SLUICE_TEST_RUN_DIR;
    if (!dir) {
      return undefined;
    }
    const key = createHash('sha256')
      .update(JSON.stringify([this.pathEnv, this.sandboxMode, this.settings.ansiblePlaybook, this.settings.bwrap]))
      .digest('hex')
      .slice(0, 16);
    return path.join(dir, `toolchain-${key}.json`);
  }
}
