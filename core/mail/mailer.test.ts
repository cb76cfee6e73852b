import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpInbox } from '../../test/support/smtp-inbox.ts';
import { createLogger } from '../logger.ts';
import { createMailer, logMailerOnFirstUse } from './mailer.ts';

function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
      done();
    },
  });
  return { lines, log: createLogger('info', { destination, pretty: false }) };
}

const LINK = `https://packline.test/account/password-reset?token=plw_${'A'.repeat(43)}`;
const message = {
  to: 'clara@example.org',
  subject: 'Reset your Packline password',
  text: `Follow this link to choose a new password:\n${LINK}\n\nIt works once, for 30 minutes.`,
  html: `<p><a href="${LINK}">Choose a new password</a></p>`,
};

describe('createMailer', () => {
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await SmtpInbox.start();
  });
  afterAll(() => inbox.close());

  it('sends through SMTP when SMTP_URL is set, from MAIL_FROM', async () => {
    const { log, lines } = capturedLog();
    const mailer = createMailer({ smtpUrl: inbox.url, from: 'Packline <no-reply@packline.test>', log });
    await mailer.send(message);
    const received = await inbox.next();
    expect(received.from).toBe('no-reply@packline.test');
    expect(received.to).toEqual(['clara@example.org']);
    expect(received.subject).toBe('Reset your Packline password');
    expect(received.text).toContain(LINK);
    expect(received.raw).toMatch(/Content-Type: text\/html/i);
    expect(lines.some((l) => l.msg === 'mail sent' && !JSON.stringify(l).includes('clara'))).toBe(true);
  });

  it('rejects and logs when the SMTP server cannot be reached', async () => {
    const { log, lines } = capturedLog();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'no-reply@packline.test', log });
    await expect(mailer.send(message)).rejects.toThrow();
    expect(lines.find((l) => l.msg === 'mail could not be sent')?.level).toBe(50);
  });

  it('without SMTP, writes the link to the log and sends nothing', async () => {
    const { log, lines } = capturedLog();
    const before = inbox.received.length;
    await createMailer({ smtpUrl: undefined, from: 'no-reply@packline.test', log }).send(message);
    log.flush();
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, link: LINK, subject: message.subject }));
    expect(inbox.received.length).toBe(before);
  });

  it("makes the log mailer's logger only when a first message is sent", async () => {
    const { log, lines } = capturedLog();
    let made = 0;
    const mailer = logMailerOnFirstUse(() => {
      made += 1;
      return log;
    });
    expect(made).toBe(0);
    await mailer.send(message);
    await mailer.send(message);
    log.flush();
    expect(made).toBe(1);
    expect(lines.filter((l) => l.link === LINK)).toHaveLength(2);
  });
});
