// Team-chat deliveries: a Slack-style Block Kit message.
import type { Language, WebhookEnvelope } from '../../core/webhooks/contract.ts';
import { signalView } from './signal-view.ts';

/** A Block Kit message: `text` is the notification fallback, `blocks` the rich layout. */
export interface TeamChatMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

/**
 * Escapes a string for mrkdwn so it can carry no control token: `&`, `<`, `>` become entities
 * (no `<!channel>`, `<@U123>`, `<http://x|y>` survives), and a bare `@here`, `@channel` or
 * `@everyone` gets a zero-width joiner after the `@` so it notifies nobody.
 */
export function escapeMrkdwn(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(here|channel|everyone)/gi, '@\u200d$1');
}

/** The team-chat message for one envelope in `language`; every string in it is escaped. */
export function renderTeamChat(envelope: WebhookEnvelope, language: Language): TeamChatMessage {
  const view = signalView(envelope, language);
  const heading = escapeMrkdwn(view.heading);
  const title = view.title === undefined ? undefined : escapeMrkdwn(view.title);
  const details = [
    ...view.facts.map((fact) => `*${escapeMrkdwn(fact.label)}*${view.colon}${escapeMrkdwn(fact.value)}`),
    ...view.notes.map(escapeMrkdwn),
  ];

  const blocks: Record<string, unknown>[] = [
    { type: 'section', text: mrkdwn(title === undefined ? `*${heading}*` : `*${heading}*\n${title}`) },
  ];
  if (details.length > 0) blocks.push({ type: 'context', elements: details.map(mrkdwn) });
  if (view.url !== undefined) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: 'open',
          text: { type: 'plain_text', text: view.openLabel, emoji: false },
          url: view.url,
        },
      ],
    });
  }
  return { text: title === undefined ? heading : `${heading}${view.colon}${title}`, blocks };
}

// verbatim: no automatic linking of URLs, channel names or user names in our text.
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });
