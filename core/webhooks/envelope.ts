import type { SignalType } from '../entities/index.ts';

export const DELIVERY_FORMATS = ['standard-json', 'team-chat', 'collaboration-suite'] as const;
export type DeliveryFormat = (typeof DELIVERY_FORMATS)[number];

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The standard JSON envelope (spec §2, DESIGN §4). */
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

/** What a worker needs to turn one envelope into one HTTP request body and its headers. */
export interface DeliveryJob {
  format: DeliveryFormat;
  language: Language;
  /** The envelope's id (`WebhookEnvelope.id`). */
  id: string;
  /**
   * The envelope as JSON text: standard JSON sends it byte for byte (no parse, no re-encoding);
   * the chat and suite renderers read it.
   */
  envelope: string;
  /** Standard JSON only: the signing secrets (`whsec_…`), current first; two during a rotation. */
  secrets: string[];
  /** Unix seconds used in the signature headers. */
  timestamp: number;
}

export interface PreparedDelivery {
  body: string;
  headers: Record<string, string>;
  /** The headers as each attempt keeps them (attempt-headers.ts), built beside them, off the sender's path. */
  headersText: string | null;
}
