export { createMailer, LogMailer, logMailerOnFirstUse, SmtpMailer, type Mailer, type MailerOptions, type MailMessage } from './mailer.ts';
