import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.ts';

/** One message to one person: plain text, and the same in HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail. Failures are logged by the mailer, then rejected to the caller. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  /** SMTP_URL (`smtp://user:password@host:587`, or `smtps://` for TLS from the start); without it, the log mailer. */
  smtpUrl?: string | undefined;
  /** MAIL_FROM: the sender every message carries. */
  from: string;
  log: Logger;
}

/** The SMTP mailer when SMTP_URL is set, otherwise the development mailer that writes each message's link to the log. */
export function createMailer({ smtpUrl, from, log }: MailerOptions): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from, log) : new LogMailer(log);
}

/**
 * Through an SMTP server (nodemailer): STARTTLS when the server offers it. nodemailer is loaded
 * with the first message: a process that sends none (every CLI command but a few) spares its
 * ~45 ms of loading.
 */
export class SmtpMailer implements Mailer {
  private readonly smtpUrl: string;
  private readonly from: string;
  private readonly log: Logger;
  private transport: Promise<Transporter> | undefined;

  constructor(smtpUrl: string, from: string, log: Logger) {
    this.smtpUrl = smtpUrl;
    this.from = from;
    this.log = log;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      this.transport ??= import('nodemailer').then(({ createTransport }) => createTransport(this.smtpUrl));
      await (await this.transport).sendMail({ from: this.from, ...message });
      this.log.info({ subject: message.subject }, 'mail sent');
    } catch (error) {
      // The address is left out: the log says that mail failed, not to whom.
      this.log.error({ err: error, subject: message.subject }, 'mail could not be sent');
      throw error;
    }
  }
}

/**
 * Development without SMTP: nothing leaves the machine; the log shows the message's link (its
 * first web address), so the person running it can follow it.
 */
export class LogMailer implements Mailer {
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  async send(message: MailMessage): Promise<void> {
    const link = /https?:\/\/\S+/.exec(message.text)?.[0] ?? null;
    this.log.info({ to: message.to, subject: message.subject, link }, 'mail not sent (no SMTP_URL): its link');
  }
}

/** The log mailer, its logger made when the first message is sent. */
export function logMailerOnFirstUse(makeLog: () => Logger | Promise<Logger>): Mailer {
  let inner: Promise<LogMailer> | undefined;
  return {
    async send(message) {
      inner ??= Promise.resolve(makeLog()).then((log) => new LogMailer(log));
      return (await inner).send(message);
    },
  };
}
