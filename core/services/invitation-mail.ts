import type { MailMessage } from '../mail/index.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The mail that carries an invitation link. */
export function invitationMail({
  to,
  organization,
  role,
  url,
}: {
  to: string;
  organization: string;
  role: string;
  url: string;
}): MailMessage {
  const as = role === 'admin' ? 'an admin' : 'a member';
  return {
    to,
    subject: `Join ${organization} on Packline`,
    text: `Hello,\n\nYou are invited to join ${organization} on Packline as ${as}. To accept, open this link within 7 days:\n\n${url}\n\nIt works once. If you do not know ${organization}, ignore this message.\n`,
    html: `<p>Hello,</p><p>You are invited to join <strong>${escapeHtml(organization)}</strong> on Packline as ${as}. To accept, open this link within 7 days:</p><p><a href="${escapeHtml(url)}">Accept the invitation</a></p><p>It works once. If you do not know ${escapeHtml(organization)}, ignore this message.</p>`,
  };
}
