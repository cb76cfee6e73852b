// Deterministic delivery jobs for tests and benchmarks: every signal type, format and language.
import { SIGNAL_TYPES, type SignalType } from '../core/entities/outbox-event.entity.ts';
import { DELIVERY_FORMATS, LANGUAGES, type DeliveryFormat, type DeliveryJob, type WebhookEnvelope } from '../core/webhooks/envelope.ts';

/** Two fixed secrets (current, previous) so signatures are reproducible. */
export const SAMPLE_SECRETS = [
  'whsec_gBigiLGHnQlE8q67hI8aOqyZarzgiRIi9xiy/8u3n9c=',
  'whsec_lv2iIBJvYYswbKJA52kviM7almpeX8tr2tYBXoFC0z0=',
];

/** The envelope data DESIGN §4 gives for `type`, built around resource `n`. */
export function sampleData(type: SignalType, n: number): Record<string, unknown> {
  const base = `https://packline.example/${type.startsWith('need') ? 'opportunities' : 'events'}`;
  const id = `${type.startsWith('need') ? 'n' : 'e'}_${n.toString(36).padStart(4, '0')}`;
  const url = `${base}/${id}`;
  switch (type) {
    case 'need.created':
    case 'need.updated':
      return {
        id,
        title: `Data platform migration & audit #${n}`,
        required_expertise: ['PostgreSQL', 'Kubernetes', 'Data engineering'].slice(0, 1 + (n % 3)),
        remote_allowed: n % 2 === 0,
        url,
      };
    case 'need.withdrawn':
      return { id, withdrawn_at: '2026-11-22T10:00:00.000Z', url };
    case 'event.created':
    case 'event.updated':
      return {
        id,
        title: `Meetup <${n}>: interoperability`,
        starts_at: '2026-11-22T10:00:00.000Z',
        ends_at: n % 2 === 0 ? '2026-11-22T12:30:00.000Z' : '2026-11-23T16:00:00.000Z',
        ...(n % 3 === 0 ? { online: true } : { place: { city: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR' } }),
        url,
      };
    case 'event.cancelled':
      return { id, cancelled_at: '2026-11-20T08:15:00.000Z', url };
  }
}

/** An envelope of `type` for resource `n`. */
export function sampleEnvelope(type: SignalType, n: number, data = sampleData(type, n)): WebhookEnvelope {
  return {
    id: `evt-${type}-${String(data.id)}-v${1 + (n % 4)}`,
    type,
    version: '1',
    occurred_at: '2026-11-22T10:00:00.000Z',
    organization_id: n % 5 === 0 ? null : `o_${(n % 7).toString(36)}`,
    data,
  };
}

/**
 * `count` jobs cycling through `formats`, then signal types, then languages, so any
 * `formats.length × 12` consecutive jobs hold every combination. Timestamps are fixed.
 */
export function sampleJobs(count: number, formats: readonly DeliveryFormat[] = DELIVERY_FORMATS): DeliveryJob[] {
  return Array.from({ length: count }, (_, n) => {
    const format = formats[n % formats.length]!;
    const round = Math.floor(n / formats.length);
    return {
      format,
      language: LANGUAGES[Math.floor(round / SIGNAL_TYPES.length) % LANGUAGES.length]!,
      ...sampleEnvelopeJob(sampleEnvelope(SIGNAL_TYPES[round % SIGNAL_TYPES.length]!, n)),
      secrets: format === 'standard-json' ? SAMPLE_SECRETS.slice(0, 1 + (n % 2)) : [],
      timestamp: 1_795_341_600, // 2026-11-22T10:00:00Z
    };
  });
}

/** The `id` and `envelope` of a job carrying `envelope`. */
export function sampleEnvelopeJob(envelope: WebhookEnvelope): Pick<DeliveryJob, 'id' | 'envelope'> {
  return { id: envelope.id, envelope: JSON.stringify(envelope) };
}
