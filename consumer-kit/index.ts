// Packline webhook consumer kit. See examples/consumer/ for a complete receiver.
export {
  verifyWebhook,
  WebhookVerificationError,
  SIGNATURE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  type WebhookHeaders,
  type WebhookVerificationReason,
  type WebhookEnvelope,
} from './verify-webhook.ts';
export type {
  SignalEnvelope,
  SignalDataOf,
  NeedSignalData,
  NeedWithdrawnData,
  EventSignalData,
  EventCancelledData,
} from '../core/webhooks/signal-types.ts';
