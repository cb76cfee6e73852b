import { describe, expect, it } from 'vitest';
import { sampleEnvelope } from '../../core/demo/sample-jobs.ts';
import { escapeMrkdwn, renderTeamChat } from './team-chat.ts';

const need = (data: Record<string, unknown>) =>
  sampleEnvelope('need.created', 1, { id: 'n_1', url: 'https://packline.example/opportunities/n_1', ...data });

describe('escapeMrkdwn', () => {
  it('escapes the three control characters and defuses broadcast mentions', () => {
    expect(escapeMrkdwn('a & <b> @here @Channel @everyone')).toBe('a &amp; &lt;b&gt; @\u200dhere @\u200dChannel @\u200deveryone');
  });
});

describe('renderTeamChat', () => {
  it('renders a need: summary section, expertise context, button, fallback', () => {
    const message = renderTeamChat(need({ title: 'Audit', required_expertise: ['SQL', 'Go'], remote_allowed: true }), 'en');
    expect(message).toEqual({
      text: 'New opportunity: Audit',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: '*New opportunity*\nAudit', verbatim: true } },
        {
          type: 'context',
          elements: [
            { type: 'mrkdwn', text: '*Expertise*: SQL, Go', verbatim: true },
            { type: 'mrkdwn', text: 'Remote possible', verbatim: true },
          ],
        },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'open',
              text: { type: 'plain_text', text: 'Open', emoji: false },
              url: 'https://packline.example/opportunities/n_1',
            },
          ],
        },
      ],
    });
  });

  it('renders an event in French with date and place', () => {
    const envelope = sampleEnvelope('event.updated', 2, {
      id: 'e_1',
      title: 'Rencontre',
      starts_at: '2026-11-22T10:00:00.000Z',
      ends_at: '2026-11-22T12:00:00.000Z',
      place: { city: 'Lyon', region: null, country: 'FR', extra: { nested: true } },
      url: 'https://packline.example/events/e_1',
    });
    const message = renderTeamChat(envelope, 'fr');
    expect(message.text).toBe('Événement mis à jour : Rencontre');
    expect(message.blocks[1]).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: '*Date* : 22 novembre 2026, 10:00 – 12:00 UTC', verbatim: true },
        { type: 'mrkdwn', text: '*Lieu* : Lyon, FR', verbatim: true },
      ],
    });
  });

  it('says online for an online event and shows the date of a cancellation', () => {
    const online = renderTeamChat(
      sampleEnvelope('event.created', 3, { id: 'e_2', title: 'Webinar', starts_at: '2026-11-22T10:00:00.000Z', online: true }),
      'fr',
    );
    expect(JSON.stringify(online.blocks[1])).toContain('*Lieu* : En ligne');
    expect(online.blocks.map((block) => block.type)).toEqual(['section', 'context']);
    const cancelled = renderTeamChat(sampleEnvelope('event.cancelled', 4), 'en');
    expect(cancelled.text).toBe('Event cancelled');
    expect(JSON.stringify(cancelled.blocks[1])).toContain('*Date*: November 20, 2026, 8:15 AM UTC');
  });

  it('truncates long titles and caps expertise lists', () => {
    const message = renderTeamChat(
      need({ title: `${'é'.repeat(200)} ${'😀'.repeat(10)}`, required_expertise: Array.from({ length: 14 }, (_, i) => `skill ${i}`) }),
      'en',
    );
    const section = message.blocks[0] as { text: { text: string } };
    const title = section.text.text.split('\n')[1]!;
    expect(Array.from(title)).toHaveLength(150);
    expect(title.endsWith('…')).toBe(true);
    expect(JSON.stringify(message.blocks[1])).toContain('skill 9 +4 more');
    expect(JSON.stringify(message.blocks[1])).not.toContain('skill 10');
  });

  it('ignores malformed data and drops a button without an http(s) url', () => {
    const message = renderTeamChat(need({ title: 42, required_expertise: 'SQL', url: 'javascript:alert(1)' }), 'en');
    expect(message).toEqual({
      text: 'New opportunity',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*New opportunity*', verbatim: true } }],
    });
  });
});
