import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, SIGNAL_TYPES } from '../../core/webhooks/contract.ts';
import { sampleEnvelope } from '../../core/demo/sample-jobs.ts';
import { renderSuiteCard, sanitizeCardText } from './suite-card.ts';

// The package's `lib/` entry fails under ESM; its UMD bundle loads in Node.
const AC = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js') as typeof import('adaptivecards');

/** Parses a card with the real Adaptive Cards parser and returns its warnings and errors. */
function parseCard(json: unknown) {
  const card = new AC.AdaptiveCard();
  const context = new AC.SerializationContext();
  card.parse(json, context);
  const events = Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message);
  return { card, events };
}

describe('renderSuiteCard', () => {
  for (const language of LANGUAGES) {
    for (const [n, type] of SIGNAL_TYPES.entries()) {
      it(`is a valid Adaptive Card 1.4 for ${type} in ${language}`, () => {
        const message = renderSuiteCard(sampleEnvelope(type, n), language);
        expect(message.type).toBe('message');
        expect(message.attachments).toHaveLength(1);
        const [attachment] = message.attachments;
        expect(attachment).toMatchObject({ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null });
        expect(attachment!.content).toMatchObject({ $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', version: '1.4' });
        const { card, events } = parseCard(attachment!.content);
        expect(events).toEqual([]);
        expect(card.version.toString()).toBe('1.4');
        expect(card.getActionCount()).toBe(1);
        expect(card.getActionAt(0)?.getJsonTypeName()).toBe('Action.OpenUrl');
        expect(JSON.stringify(message)).not.toContain('msteams');
      });
    }
  }

  it('lists expertise, date and place as facts in the language', () => {
    const need = renderSuiteCard(sampleEnvelope('need.created', 2), 'fr').attachments[0]!.content;
    expect(need.body).toEqual([
      { type: 'TextBlock', text: 'Nouvelle opportunité', weight: 'Bolder', size: 'Medium', wrap: true },
      { type: 'TextBlock', text: 'Data platform migration & audit #2', wrap: true },
      { type: 'FactSet', facts: [{ title: 'Expertise', value: 'PostgreSQL, Kubernetes, Data engineering' }] },
      { type: 'TextBlock', text: 'Télétravail possible', isSubtle: true, wrap: true },
    ]);
    const event = renderSuiteCard(sampleEnvelope('event.created', 1), 'en').attachments[0]!.content;
    expect((event.body as { facts?: unknown }[])[2]?.facts).toEqual([
      { title: 'Date', value: 'November 22, 2026, 10:00 AM UTC – November 23, 2026, 4:00 PM UTC' },
      { title: 'Place', value: 'Lyon, Auvergne-Rhône-Alpes, FR' },
    ]);
  });

  it('stays valid without title, facts or url', () => {
    const message = renderSuiteCard(sampleEnvelope('need.withdrawn', 1, { id: 'n_1' }), 'en');
    expect(parseCard(message.attachments[0]!.content).events).toEqual([]);
    expect(message.attachments[0]!.content.actions).toBeUndefined();
  });
});

describe('sanitizeCardText', () => {
  it('strips at tags in any case and with attributes, keeping the text between them', () => {
    expect(sanitizeCardText('Hi <at>Alice</at> and <AT id="1">Bob</AT>, <At\tid=2>Eve</aT >')).toBe('Hi Alice and Bob, Eve');
  });

  it('does not let nested tags rebuild one', () => {
    expect(sanitizeCardText('<<at>at>x<</at>/at>')).toBe('x');
  });

  it('keeps comparisons and defuses broadcast mentions', () => {
    expect(sanitizeCardText('a < b > c @everyone')).toBe('a < b > c @\u200deveryone');
  });
});
