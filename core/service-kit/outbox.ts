import type { EntityManager } from '@mikro-orm/sql';
import { OutboxEventEntity, type SignalType } from '../entities/index.ts';
import { lockOutbox } from '../components/change-feed.ts';

export interface Signal {
  type: SignalType;
  resourceId: string;
  resourceVersion: number;
  organizationId: string;
  deliverable: boolean;
  data: Record<string, unknown>;
}

export const signalId = (type: SignalType, resourceId: string, version: number) => `evt-${type}-${resourceId}-v${version}`;

/**
 * Writes the signal's outbox row; call inside the transaction that makes the change (which
 * records what it touched with `recordChange` too).
 */
export async function recordSignal(em: EntityManager, signal: Signal): Promise<void> {
  em.create(OutboxEventEntity, {
    eventId: signalId(signal.type, signal.resourceId, signal.resourceVersion),
    type: signal.type,
    resourceId: signal.resourceId,
    resourceVersion: signal.resourceVersion,
    organizationId: signal.organizationId,
    deliverable: signal.deliverable,
    occurredAt: new Date(),
    data: signal.data,
  });
  await lockOutbox(em);
}
