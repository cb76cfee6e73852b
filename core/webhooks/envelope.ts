import type { DeliveryFormat, Language } from './contract.ts';

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
  /** A test signal sent on request: `x-service-test: 1` is sent, and kept with the attempt's headers. */
  test?: boolean;
}

export interface PreparedDelivery {
  body: string;
  headers: Record<string, string>;
  /** The headers as each attempt keeps them (attempt-headers.ts), built beside them, off the sender's path. */
  headersText: string | null;
}
