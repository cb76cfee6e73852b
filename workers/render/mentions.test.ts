import { describe, expect, it } from 'vitest';
import { SIGNAL_TYPES, type DeliveryFormat, type Language } from '../../core/webhooks/contract.ts';
import { sampleEnvelope, sampleEnvelopeJob } from '../../core/demo/sample-jobs.ts';
import { prepareDeliveries } from '../tasks.ts';

// Every token that could notify or link in a chat or a suite, as a hostile organization might write it.
const HOSTILE = [
  '<!channel>',
  '<@U123>',
  '@here',
  '<!here>',
  '<http://evil|click>',
  '<at>x</at>',
  '<AT id="1">Bob</AT>',
  '@channel',
  '@everyone',
];
const FORBIDDEN = [/<!channel>/i, /<@U123>/i, /@here/i, /<!here>/i, /<http:\/\/evil\|click>/i, /<\/?at\b/i, /@channel/i, /@everyone/i];

const hostile = HOSTILE.join(' ');
const hostileData = {
  id: 'n_x',
  title: `Urgent ${hostile}`,
  required_expertise: HOSTILE,
  remote_allowed: true,
  starts_at: '2026-11-22T10:00:00.000Z',
  ends_at: '2026-11-22T11:00:00.000Z',
  place: { city: hostile, region: '<@U123>', country: '@here' },
  withdrawn_at: '2026-11-22T10:00:00.000Z',
  cancelled_at: '2026-11-22T10:00:00.000Z',
  url: 'https://packline.example/opportunities/n_x',
};

describe('mention neutralisation', () => {
  const formats: DeliveryFormat[] = ['team-chat', 'collaboration-suite'];
  const languages: Language[] = ['en', 'fr'];
  const jobs = formats.flatMap((format) =>
    languages.flatMap((language) =>
      SIGNAL_TYPES.map((type, n) => ({
        format,
        language,
        ...sampleEnvelopeJob(sampleEnvelope(type, n, hostileData)),
        secrets: [],
        timestamp: 1,
      })),
    ),
  );

  it('leaves no mention or link token in any rendered body', () => {
    const bodies = prepareDeliveries(jobs).map((delivery) => delivery.body);
    expect(bodies).toHaveLength(24);
    for (const body of bodies) {
      for (const token of FORBIDDEN) expect(body, body).not.toMatch(token);
      expect(JSON.parse(body)).not.toHaveProperty('msteams');
    }
  });

  it('still shows the words around the tokens', () => {
    const [chat] = prepareDeliveries(jobs.slice(0, 1));
    expect(chat!.body).toContain('Urgent &lt;!channel&gt; &lt;@U123&gt; @\u200dhere');
    const suite = prepareDeliveries(jobs.filter((job) => job.format === 'collaboration-suite').slice(0, 1));
    expect(suite[0]!.body).toContain('Urgent @\u200dhere x Bob @\u200dchannel @\u200deveryone');
  });
});
