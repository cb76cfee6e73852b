// The webhook contract's vocabulary: the signal kinds, the delivery formats, the languages and the
// standard JSON envelope. A leaf: the entities, the services and the workers import it; it imports nothing.

export const SIGNAL_TYPES = [
  'need.created',
  'need.updated',
  'need.withdrawn',
  'event.created',
  'event.updated',
  'event.cancelled',
] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

export const DELIVERY_FORMATS = ['standard-json', 'team-chat', 'collaboration-suite'] as const;
export type DeliveryFormat = (typeof DELIVERY_FORMATS)[number];

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The standard JSON envelope (docs/design.md#webhook-envelope). */
export interface WebhookEnvelope {
  /** `evt-<type>-<resource id>-v<version>`: the same on every attempt and every destination. */
  id: string;
  type: SignalType;
  version: '1';
  /** ISO 8601 UTC with milliseconds. */
  occurred_at: string;
  /** Null for the platform-wide feed; the organization's id for a destination scoped to its own content. */
  organization_id: string | null;
  data: Record<string, unknown>;
}
