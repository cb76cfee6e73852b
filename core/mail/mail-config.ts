/** Outgoing mail as configured. */
export interface MailConfig {
  /** SMTP_URL: `smtp://user:password@host:587` or `smtps://…:465`; unset, each message's link is written to the log. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender of every message. @default `Packline <no-reply@HOST>`, HOST that of PUBLIC_BASE_URL */
  from: string;
}

/** SMTP_URL and MAIL_FROM, each problem added to `problems`; the sender's default needs the public address, known later. */
export function readMailConfig(
  value: (name: string) => string | undefined,
  problems: string[],
): { smtpUrl: string | undefined; from: string | undefined } {
  const smtpUrl = value('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^\s]+$/.test(smtpUrl)) {
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@host:587)');
  }
  const from = value('MAIL_FROM');
  if (from !== undefined && !/^(?:[^\r\n<>@]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/.test(from)) {
    problems.push('MAIL_FROM must be an email address, optionally with a name (Packline <no-reply@example.org>)');
  }
  return { smtpUrl, from };
}
