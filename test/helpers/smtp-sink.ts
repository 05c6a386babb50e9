/** A local SMTP server for tests (smtp-server on 127.0.0.1, port 0) that keeps every mail it receives. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Header values by lower-case name. */
  headers: Record<string, string>;
  /** The body, quoted-printable decoded. */
  text: string;
  /** The user who authenticated, if any. */
  user: string | null;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the first mail (received or to come) that `match` accepts. */
  next(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

function parse(raw: string, from: string, to: string[], user: string | null): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let text = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    const bytes = text.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => `%${hex}`);
    text = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
  }
  return { from, to, headers, text, user };
}

/** Start a server; `users` (name -> password) makes it require and check authentication. */
export async function startSmtpSink(users?: Record<string, string>): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: users === undefined ? ['STARTTLS', 'AUTH'] : ['STARTTLS'],
    authOptional: users === undefined,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (users !== undefined && auth.username !== undefined && users[auth.username] === auth.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        const from = envelope.mailFrom === false ? '' : envelope.mailFrom.address;
        const user = typeof session.user === 'string' ? session.user : null;
        const to = envelope.rcptTo.map((rcpt) => rcpt.address);
        mails.push(parse(Buffer.concat(chunks).toString('utf8'), from, to, user));
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    next: async (match, timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(match);
        if (found) {
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(
            `no matching mail in ${timeoutMs} ms (received: ${mails.map((m) => m.headers.subject).join(' | ')})`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
