// Collaboration-suite deliveries: a Microsoft Teams style message carrying an Adaptive Card 1.4.
import type { Language, WebhookEnvelope } from '../../core/webhooks/contract.ts';
import { signalView } from './signal-view.ts';

/** The message envelope a suite's incoming webhook accepts. */
export interface SuiteMessage {
  type: 'message';
  attachments: {
    contentType: 'application/vnd.microsoft.card.adaptive';
    contentUrl: null;
    content: Record<string, unknown>;
  }[];
}

const TAG = /<[^\s<>][^<>]*>/g;

/**
 * Makes user text inert in a card: removes tag-like tokens (`<at>`, `</AT>`, `<at id="1">`, and
 * chat tokens such as `<!channel>`), repeating until none is left so nested tags cannot rebuild
 * one, puts a zero-width joiner after the `@` of `@here`, `@channel`, `@everyone`, and tidies the
 * spaces a removed tag leaves behind.
 */
export function sanitizeCardText(text: string): string {
  let current = text;
  for (let previous = ''; previous !== current; ) {
    previous = current;
    current = current.replace(TAG, '');
  }
  return current
    .replace(/@(here|channel|everyone)/gi, '@\u200d$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * The suite message for one envelope in `language`. It never carries `msteams.entities`, so the
 * card can mention nobody.
 */
export function renderSuiteCard(envelope: WebhookEnvelope, language: Language): SuiteMessage {
  const view = signalView(envelope, language);
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: sanitizeCardText(view.heading), weight: 'Bolder', size: 'Medium', wrap: true },
  ];
  const title = view.title === undefined ? '' : sanitizeCardText(view.title);
  if (title !== '') body.push({ type: 'TextBlock', text: title, wrap: true });
  if (view.facts.length > 0) {
    body.push({
      type: 'FactSet',
      facts: view.facts.map((fact) => ({ title: sanitizeCardText(fact.label), value: sanitizeCardText(fact.value) })),
    });
  }
  for (const note of view.notes) body.push({ type: 'TextBlock', text: sanitizeCardText(note), isSubtle: true, wrap: true });

  const card: Record<string, unknown> = {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.4',
    body,
  };
  if (view.url !== undefined) card.actions = [{ type: 'Action.OpenUrl', title: view.openLabel, url: view.url }];
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}
