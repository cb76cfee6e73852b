import { LRUCache } from 'lru-cache';
import type { Plan } from '../entities/index.ts';
import { PLAN_ALLOWANCES } from '../plans.ts';
import type { SecretBox } from '../secret-box.ts';
import type { AttemptOutcome } from './attempt-outcome.ts';
import type { SignalRow } from './delivery-scripts.ts';
import type { TargetSettings } from './lane-scripts.ts';
import type { WebhookEnvelope } from './contract.ts';
import type { ScriptRunner } from './script-runners.ts';
import { secretContext, urlContext } from './views.ts';

export type { AttemptOutcome } from './attempt-outcome.ts';

/**
 * Deliveries written by one fan-out transaction, at most (beyond the outbox row that crosses it):
 * a large backlog is fanned out in chunks, and sending starts after the first.
 */
export const FAN_OUT_DELIVERIES = 2_000;
/** Outbox rows looked at by one fan-out transaction, at most. */
const FAN_OUT_ROWS = 500;
/** Envelope texts kept in memory: a few signals' worth for every lane. */
const ENVELOPES_KEPT = 10_000;

/** A destination as its lane needs it: URL and secrets unsealed. */
export interface LaneTarget extends TargetSettings {
  url: string;
  /** Current secret first; the replaced one too while a rotation is under way. */
  secrets: string[];
  /** When `secrets` changes by itself: the end of a rotation's overlap (epoch ms). */
  secretsUntil: number;
  active: boolean;
  /** Changes whenever the destination's row does (see `stamp`). */
  stamp: string;
}

export interface PendingDelivery {
  id: string;
  seq: number;
  eventId: string;
  /** The envelope as JSON text, the same on every attempt. */
  envelope: string;
  test: boolean;
  attempts: number;
  /** Epoch milliseconds. */
  nextAttemptAt: number;
  createdAt: number;
}

/**
 * The dispatcher's durable bookkeeping: fan-out of outbox rows into deliveries, lane leases,
 * and attempt results. Every state change is a database write, so a crash loses nothing.
 */
export class DeliveryStore {
  /** Destinations with finished deliveries not yet trimmed to their plan's retention. */
  private readonly untrimmed = new Map<string, Plan>();
  /** Envelope texts by outbox row and scope (see `envelopes`). */
  private readonly envelopeTexts = new LRUCache<string, string>({ max: ENVELOPES_KEPT });
  /** Outbox reads under way, by sequence number. */
  private readonly signalReads = new Map<number, Promise<SignalRow[]>>();

  private readonly sql: ScriptRunner;
  private readonly box: SecretBox;

  constructor(sql: ScriptRunner, box: SecretBox) {
    this.sql = sql;
    this.box = box;
  }

  /**
   * Turns outbox rows not yet fanned out into one delivery per matching destination, a chunk at a
   * time, in one transaction with marking them done. Returns how many rows were handled.
   */
  async fanOut(maxDeliveries = FAN_OUT_DELIVERIES): Promise<{ rows: number; destinations: string[] }> {
    // Most calls find nothing: a read outside any transaction says so without taking the write lock.
    if (!(await this.outboxWaiting())) return { rows: 0, destinations: [] };
    return this.sql.call('fanOut', { limit: FAN_OUT_ROWS, maxDeliveries });
  }

  /** Whether any destination is active: a read that takes no lock. */
  hasActiveDestination(): Promise<boolean> {
    return this.sql.call('anyActiveDestination', {});
  }

  /**
   * Marks waiting outbox rows fanned out while no destination is active (a chunk per call);
   * true when one is, and the rows wait for a dispatcher's fan-out.
   */
  settleOutbox(): Promise<boolean> {
    return this.sql.call('settleOutbox', { limit: FAN_OUT_ROWS });
  }

  /** Whether outbox rows wait for their fan-out: a read that takes no lock. */
  outboxWaiting(): Promise<boolean> {
    return this.sql.call('outboxWaiting', {});
  }

  /** Active destinations that have deliveries waiting. */
  destinationsWithWork(): Promise<string[]> {
    return this.sql.call('destinationsWithWork', {});
  }

  /** Takes the lanes of `ids` that no other live dispatcher holds; returns those now held by `owner`. */
  async claim(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.sql.call('claimLanes', { owner, ids, leaseMs, now: Date.now() });
  }

  /** Extends `owner`'s leases; returns the lanes it still holds. */
  renew(owner: string, leaseMs: number): Promise<string[]> {
    return this.sql.call('renewLanes', { owner, leaseMs, now: Date.now() });
  }

  /** Gives lanes back (all of `owner`'s when `ids` is omitted) so another dispatcher takes them at once. */
  async release(owner: string, ids?: string[]): Promise<void> {
    if (ids?.length === 0) return;
    await this.sql.call('releaseLanes', { owner, ids });
  }

  /** Lanes' targets, by destination id (null for a destination that is gone): one read for them all. */
  async targets(ids: string[], now = Date.now()): Promise<Map<string, LaneTarget | null>> {
    const found = new Map<string, LaneTarget | null>(ids.map((id) => [id, null]));
    for (const row of await this.sql.call('destinationTargets', { ids })) {
      const rotating = row.previousSecretSealed !== null && row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
      found.set(row.id, {
        id: row.id,
        organizationId: row.organizationId,
        plan: row.plan,
        format: row.format,
        language: row.language,
        scope: row.scope,
        url: this.box.open(row.urlSealed, urlContext(row.id)),
        secrets: [
          ...(row.secretSealed ? [this.box.open(row.secretSealed, secretContext(row.id))] : []),
          ...(rotating ? [this.box.open(row.previousSecretSealed!, secretContext(row.id))] : []),
        ],
        secretsUntil: rotating ? row.previousSecretExpiresAt! : Number.POSITIVE_INFINITY,
        active: row.status === 'active',
        stamp: stampOf(row.status, row.updatedAtMs),
      });
    }
    return found;
  }

  /**
   * For each of `ids`, a value that changes whenever the destination does (every change sets its
   * `updated_at`), or null once it is gone: a lane compares it with its target's to know whether
   * to read it again.
   */
  async stamps(ids: string[]): Promise<Map<string, string | null>> {
    const found = new Map<string, string | null>(ids.map((id) => [id, null]));
    for (const row of await this.sql.call('destinationStamps', { ids })) found.set(row.id, stampOf(row.status, row.updatedAtMs));
    return found;
  }

  /** The lane's waiting deliveries in order (outbox sequence, then creation), those after `after` only when given. */
  async pending(destination: Pick<LaneTarget, 'id' | 'scope'>, limit: number, after?: PendingDelivery): Promise<PendingDelivery[]> {
    const rows = await this.sql.call('pending', {
      destinationId: destination.id,
      limit,
      after: after && { seq: after.seq, createdAt: after.createdAt, id: after.id },
    });
    const fromOutbox = rows.filter((row) => row.envelope === null).map((row) => row.seq);
    const envelopes = fromOutbox.length > 0 ? await this.envelopes(fromOutbox, destination.scope === 'own') : undefined;
    return rows.map((row) => ({ ...row, envelope: row.envelope ?? envelopes!.get(row.seq)! }));
  }

  /** Writes a batch of attempt outcomes in one transaction. */
  async record(outcomes: AttemptOutcome[], retention: Map<string, Plan>): Promise<void> {
    if (outcomes.length === 0) return;
    await this.sql.call('record', { outcomes });
    for (const o of outcomes) {
      const plan = retention.get(o.destinationId);
      if (plan && o.next.status !== 'pending') this.untrimmed.set(o.destinationId, plan);
    }
  }

  /**
   * Deletes finished deliveries beyond what each plan retains, for the destinations that
   * finished some since the last call. Called periodically: trimming after every batch would
   * cost more than the sends.
   */
  async trimRetained(): Promise<void> {
    if (this.untrimmed.size === 0) return;
    const keep = [...this.untrimmed].map(([destinationId, plan]): [string, number] => [
      destinationId,
      PLAN_ALLOWANCES[plan].retainedDeliveries,
    ]);
    this.untrimmed.clear();
    await this.sql.call('trim', { keep });
  }

  async close(): Promise<void> {
    await this.sql.close();
  }

  /**
   * The envelope text of outbox rows `seqs` as a destination of that scope receives it. Every lane
   * sends the same few signals, so each text is built once and kept a while.
   */
  private async envelopes(seqs: number[], own: boolean): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    const missing: number[] = [];
    for (const seq of new Set(seqs)) {
      const text = this.envelopeTexts.get(envelopeKey(seq, own));
      if (text === undefined) missing.push(seq);
      else found.set(seq, text);
    }
    if (missing.length === 0) return found;
    // Lanes ask for the same signals at the same moment: one read serves them all.
    const reads = new Map<number, Promise<SignalRow[]>>();
    const unread = missing.filter((seq) => {
      const reading = this.signalReads.get(seq);
      if (reading) reads.set(seq, reading);
      return !reading;
    });
    if (unread.length > 0) {
      const reading = this.sql.call('signals', { seqs: unread });
      for (const seq of unread) this.signalReads.set(seq, reading);
      void reading
        .finally(() => {
          for (const seq of unread) if (this.signalReads.get(seq) === reading) this.signalReads.delete(seq);
        })
        .catch(() => undefined);
      for (const seq of unread) reads.set(seq, reading);
    }
    for (const rows of new Set(reads.values())) {
      for (const row of await rows) {
        if (!reads.has(row.seq)) continue;
        const key = envelopeKey(row.seq, own);
        let text = this.envelopeTexts.get(key);
        if (text === undefined) {
          text = envelopeText(row, own);
          this.envelopeTexts.set(key, text);
        }
        found.set(row.seq, text);
      }
    }
    const lost = missing.filter((seq) => !found.has(seq));
    if (lost.length > 0) throw new Error(`Outbox rows ${lost.join(', ')} are gone, but deliveries of them are waiting`);
    return found;
  }
}

/** The standard JSON envelope (docs/design.md#webhook-envelope); only `organization_id` depends on the destination's scope. */
export function envelopeText(row: SignalRow, own: boolean): string {
  return JSON.stringify({
    id: row.eventId,
    type: row.type,
    version: '1',
    occurred_at: new Date(row.occurredAtMs).toISOString(),
    organization_id: own ? row.organizationId : null,
    data: row.data as Record<string, unknown>,
  } satisfies WebhookEnvelope);
}

const stampOf = (status: string, updatedAtMs: number) => `${status}:${updatedAtMs}`;
const envelopeKey = (seq: number, own: boolean) => `${seq}:${own ? 'own' : 'platform'}`;
