/**
 * The SMTP driver (docs/reporters.md#smtp): a reporter only. Each report of a pipeline phase
 * whose reporters name an `smtp` connection is mailed through nodemailer to the reporter's `to`
 * (else the connection's `defaultTo`), from its `from` (else `defaultFrom`), with its `subject`.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import { sendFailure, throwIfNotSent, type ItemReport } from '../../engine/ports/reporter';
import type { Driver, DriverLog } from '../driver';
import { changeLabel, fillTemplate, reportFields, reportText } from '../report-fields';

/** A mail server (docs/reporters.md#smtp). */
export const smtpConnection = z
  .object({
    driver: z.literal('smtp'),
    server: z.string().min(1).default('localhost'),
    port: z.number().int().min(1).max(65535).default(25),
    defaultFrom: z.string().min(1).default('zuul'),
    defaultTo: z.string().min(1).default('zuul'),
    user: z.string().min(1).optional(),
    password: z.string().optional(),
    /** Upgrade the connection with STARTTLS (and refuse a server that does not offer it). */
    useStarttls: z.boolean().default(false),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.password !== undefined && c.user === undefined) {
      ctx.addIssue({ code: 'custom', message: 'give "user" with "password"', path: ['user'] });
    }
  });

export type SmtpConnectionConfig = z.infer<typeof smtpConnection>;

const REPORTER_KEYS = ['to', 'from', 'subject'];
const DEFAULT_SUBJECT = 'Report for change {change} against {ref}';
/** Waits before the second and third attempt to send a mail. */
const RETRY_DELAYS_MS = [500, 2000];

/** Sends the mails of reports to one driver's connections. */
export class SmtpReporter {
  private readonly transports = new Map<string, Transporter>();

  constructor(
    private readonly connections: ReadonlyMap<string, SmtpConnectionConfig>,
    private readonly log: DriverLog,
    private readonly delaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  private transport(name: string, settings: SmtpConnectionConfig): Transporter {
    let transport = this.transports.get(name);
    if (transport === undefined) {
      transport = nodemailer.createTransport({
        host: settings.server,
        port: settings.port,
        secure: false,
        requireTLS: settings.useStarttls,
        ignoreTLS: !settings.useStarttls,
        auth: settings.user === undefined ? undefined : { user: settings.user, pass: settings.password ?? '' },
        connectionTimeout: 30_000,
        socketTimeout: 30_000,
      });
      this.transports.set(name, transport);
    }
    return transport;
  }

  /** The mail a reporter of `connection` sends for the report. */
  static mail(report: ItemReport, settings: SmtpConnectionConfig, options: Record<string, unknown>) {
    const fields = { ...reportFields(report), change: changeLabel(report.change) };
    const subject = typeof options.subject === 'string' ? options.subject : DEFAULT_SUBJECT;
    return {
      from: typeof options.from === 'string' ? options.from : settings.defaultFrom,
      to: typeof options.to === 'string' ? options.to : settings.defaultTo,
      subject: fillTemplate(subject, fields),
      text: reportText(report),
    };
  }

  async report(report: ItemReport): Promise<void> {
    const failures: string[] = [];
    for (const reporter of report.reporters) {
      const settings = this.connections.get(reporter.connection);
      if (settings === undefined) {
        continue;
      }
      const mail = SmtpReporter.mail(report, settings, reporter.options);
      for (let attempt = 0; ; attempt += 1) {
        try {
          await this.transport(reporter.connection, settings).sendMail(mail);
          break;
        } catch (err) {
          const wait = this.delaysMs[attempt];
          const fields = { connection: reporter.connection, to: mail.to, err: String(err) };
          if (wait === undefined) {
            this.log.error(fields, 'smtp report not sent');
            failures.push(sendFailure(`smtp report to ${mail.to} (${reporter.connection})`, err));
            break;
          }
          this.log.warn(fields, `smtp report failed, retrying in ${wait} ms`);
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    }
    throwIfNotSent(failures);
  }

  close(): void {
    this.transports.forEach((transport) => transport.close());
    this.transports.clear();
  }
}

export const smtpDriver = {
  name: 'smtp',
  connection: {
    schema: smtpConnection,
    canonicalHostname: (name) => name,
  },
  reporters: {
    validate(options, read, attribute) {
      read.keys(options, REPORTER_KEYS, [], `data['${attribute}']`);
      for (const key of REPORTER_KEYS) {
        if (options[key] !== undefined && typeof options[key] !== 'string') {
          read.fail(`expected str for dictionary value @ data['${attribute}']['${key}']`);
        }
      }
    },
    compile: () => ({ external: true }),
  },
  runtime(context) {
    const reporter = new SmtpReporter(context.connections, context.log);
    return {
      reporter,
      tasks: [{ name: 'smtp', role: 'scheduler', start: () => undefined, stop: async () => reporter.close() }],
    };
  },
} satisfies Driver<SmtpConnectionConfig>;
