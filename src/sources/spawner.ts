/**
 * Runs short commands (git) from a small child process instead of this one
 * (docs/operations.md#starting-git-from-a-small-process).
 * Starting a process copies the page tables of the process that starts it, on the thread that
 * starts it: from a server holding the embedded store (about 500 MB resident) that took about
 * 20 ms of CPU per git command, with the event loop stopped meanwhile; from the small child it
 * takes about 1 ms. The child is started on the first command and let go after IDLE_MS without
 * one; it is unreferenced while idle, so it keeps no process running, and it leaves when this
 * process does (its IPC channel closes).
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface Finished {
  /** The exit code; null when a signal ended the command. */
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

interface Reply extends Partial<Finished> {
  id: number;
  error?: string;
}

/** The child: runs each command it is sent and sends back its exit code and output. */
const CHILD = `
const { spawn } = require('node:child_process');
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  let sent = false;
  const send = (reply) => { if (!sent) { sent = true; process.send({ id: m.id, ...reply }); } };
  try {
    const child = spawn(m.command, m.args, { cwd: m.cwd, env: m.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout?.on('data', (c) => out.push(c));
    child.stderr?.on('data', (c) => err.push(c));
    child.on('error', (e) => send({ error: String(e) }));
    child.on('close', (code) => send({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
    child.stdin?.on('error', () => {});
    child.stdin?.end(m.input);
  } catch (e) {
    send({ error: String(e) });
  }
});
`;

const IDLE_MS = 10_000;

interface Runner {
  process: ChildProcess;
  /** The commands sent and not answered, by id. */
  waiting: Map<number, { resolve: (done: Finished) => void; reject: (error: Error) => void }>;
}

let current: Runner | undefined;
let idle: NodeJS.Timeout | undefined;
let nextId = 0;

function runner(): Runner {
  if (current?.process.connected) {
    return current;
  }
  const started = fork('-e', [CHILD], {
    execPath: process.execPath,
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const mine: Runner = { process: started, waiting: new Map() };
  started.on('message', (reply: Reply) => {
    const entry = mine.waiting.get(reply.id);
    mine.waiting.delete(reply.id);
    if (reply.error !== undefined) {
      entry?.reject(new Error(reply.error));
    } else {
      entry?.resolve({
        code: reply.code ?? null,
        stdout: Buffer.from(reply.stdout ?? []),
        stderr: Buffer.from(reply.stderr ?? []),
      });
    }
    if (mine.waiting.size === 0) {
      started.channel?.unref();
      idle = setTimeout(() => {
        if (mine.waiting.size === 0 && current === mine) {
          current = undefined;
          started.disconnect();
        }
      }, IDLE_MS).unref();
    }
  });
  const gone = (error: Error) => {
    if (current === mine) {
      current = undefined;
    }
    for (const entry of mine.waiting.values()) {
      entry.reject(error);
    }
    mine.waiting.clear();
  };
  started.on('error', gone);
  started.on('exit', () => gone(new Error('the process running commands exited')));
  started.unref();
  started.channel?.unref();
  current = mine;
  return mine;
}

/** Run `command` to its end in the child, `input` on its standard input. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string>; input?: Buffer | string },
): Promise<Finished> {
  clearTimeout(idle);
  const target = runner();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    target.waiting.set(id, { resolve, reject });
    // Referenced while a command runs: its caller waits for it.
    target.process.channel?.ref();
    target.process.send({ id, command, args, cwd: options.cwd, env: options.env, input: options.input });
  });
}
