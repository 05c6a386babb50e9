/**
 * The SMTP connection's `useStarttls` (docs/reporters.md#smtp) against the test's SMTP server,
 * which offers no STARTTLS: with `useStarttls: true` the mail is not sent in plain text (the
 * report is logged as not sent); without it the same server gets the mail.
 */
import { SmtpReporter, type SmtpConnectionConfig } from '../../../src/drivers/smtp/index';
import type { DriverLog } from '../../../src/drivers/driver';
import { ReportNotSent, type ItemReport } from '../../../src/engine/ports/reporter';
import { refChange } from '../../../src/model/changes';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink';

jest.setTimeout(60_000);

describe('SMTP useStarttls', () => {
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await sink?.stop();
  });

  /** How the last send ended: null when every report was sent, else its rejection. */
  let refusal: unknown = null;
  const send = async (useStarttls: boolean) => {
    const logged: Array<{ level: string; fields: unknown; message: string }> = [];
    const log = {
      info: () => undefined,
      debug: () => undefined,
      warn: (fields: unknown, message: string) => logged.push({ level: 'warn', fields, message }),
      error: (fields: unknown, message: string) => logged.push({ level: 'error', fields, message }),
    } as unknown as DriverLog;
    const settings: SmtpConnectionConfig = {
      driver: 'smtp',
      server: '127.0.0.1',
      port: sink.port,
      defaultFrom: 'zuul@example.com',
      defaultTo: `starttls-${useStarttls}@example.com`,
      useStarttls,
    } as SmtpConnectionConfig;
    const reporter = new SmtpReporter(new Map([['mail', settings]]), log, []);
    const report: ItemReport = {
      tenant: 'acme',
      pipeline: 'check',
      phase: 'success',
      change: {
        ...refChange('example.com/org/app', 'refs/changes/1', null, 'abc'),
        kind: 'change',
        number: 1,
        patchset: '1',
      },
      buildsetUuid: 'b',
      message: 'Build succeeded.',
      result: 'SUCCESS',
      jobs: [],
      reporters: [{ connection: 'mail', driver: 'smtp', options: {} }],
    };
    refusal = await reporter.report(report).then(
      () => null,
      (error: unknown) => error,
    );
    reporter.close();
    return logged;
  };

  it('refuses to send in plain text to a server without STARTTLS when useStarttls is set', async () => {
    const logged = await send(true);
    expect(logged).toEqual([expect.objectContaining({ level: 'error', message: 'smtp report not sent' })]);
    // The work runner records it (a `report-failed` system event, docs/gating.md#engine-work).
    expect(refusal).toBeInstanceOf(ReportNotSent);
    expect(String(refusal)).toMatch(/smtp report to starttls-true@example.com \(mail\): .*STARTTLS/i);
    expect(String((logged[0].fields as { err: string }).err)).toMatch(/STARTTLS/i);
    expect(sink.mails.filter((m) => m.to.includes('starttls-true@example.com'))).toEqual([]);
  });

  it('sends to the same server without useStarttls', async () => {
    expect(await send(false)).toEqual([]);
    expect(refusal).toBeNull();
    await sink.next((m) => m.to.includes('starttls-false@example.com'), 10_000);
  });
});
