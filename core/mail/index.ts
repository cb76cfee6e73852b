export { createMailer, LogMailer, SmtpMailer, type Mailer, type MailerOptions, type MailMessage } from './mailer.ts';
