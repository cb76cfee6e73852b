// The TypeScript types of each kind's `data` and envelope, derived from the declarations in
// core/visibility.ts (type-only: nothing here runs). The consumer kit exports them.
import type { SIGNAL_DATA } from '../visibility.ts';
import type { SignalType, WebhookEnvelope } from './contract.ts';

/** The `data` of a `K` signal. */
export type SignalDataOf<K extends SignalType> = ReturnType<(typeof SIGNAL_DATA)[K]['example']>;
export type NeedSignalData = SignalDataOf<'need.created'>;
export type NeedWithdrawnData = SignalDataOf<'need.withdrawn'>;
export type EventSignalData = SignalDataOf<'event.created'>;
export type EventCancelledData = SignalDataOf<'event.cancelled'>;

/** A standard JSON envelope of one of the kinds `K`, with its kind's data. */
export type SignalEnvelope<K extends SignalType = SignalType> = {
  [T in K]: Omit<WebhookEnvelope, 'type' | 'data'> & { type: T; data: SignalDataOf<T> };
}[K];

type KeysOf<T> = T extends unknown ? keyof T : never;
/** Every field name of any kind's data (in any variant). */
export type SignalFieldName = KeysOf<SignalDataOf<SignalType>>;
