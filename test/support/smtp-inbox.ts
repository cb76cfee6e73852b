import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it, with its text part decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

/**
 * A real SMTP server on a loopback port: what Packline sends arrives here. `next()` waits for the
 * next message (or takes one already received).
 */
export class SmtpInbox {
  readonly received: ReceivedMail[] = [];
  private readonly server: SMTPServer;
  private waiting: ((mail: ReceivedMail) => void)[] = [];
  private taken = 0;

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
            text: textPart(raw),
            raw,
          };
          this.received.push(mail);
          this.waiting.shift()?.(mail);
          done();
        });
      },
    });
  }

  static async start(): Promise<SmtpInbox> {
    const inbox = new SmtpInbox();
    await new Promise<void>((resolve) => inbox.server.listen(0, '127.0.0.1', resolve));
    return inbox;
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /** The next message not taken yet. */
  next(): Promise<ReceivedMail> {
    const ready = this.received[this.taken];
    if (ready) {
      this.taken += 1;
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => {
      this.waiting.push((mail) => {
        this.taken += 1;
        resolve(mail);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The text/plain part of a message (or its only body), quoted-printable decoded. */
function textPart(raw: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r\n((?:[^\r\n]+\r\n)*)\r\n([\s\S]*?)(?:\r\n--|$)/i.exec(raw);
  if (!part) return raw;
  const body = part[2] ?? '';
  if (!/quoted-printable/i.test(part[1] ?? '')) return body;
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
