// The dispatcher's units of database work on destinations (see delivery-scripts.ts, which names
// them all): the lanes' leases, which destinations have work waiting, and what a lane's target is
// made from. Keep this module's imports light: it is loaded by the SQLite thread too.
import type { DestinationScope } from '../entities/webhook-destination.entity.ts';
import type { Plan } from '../entities/organization.entity.ts';
import type { DeliveryFormat, Language } from './contract.ts';
import { chunked, probe, read, write, type ScriptDefinition } from '../db/scripts.ts';
import { ANY_ACTIVE_DESTINATION, DESTINATIONS_WITH_WORK } from './delivery-statements.ts';

/** What a lane knows of its destination besides the URL and the secrets. */
export interface TargetSettings {
  id: string;
  organizationId: string;
  plan: Plan;
  format: DeliveryFormat;
  language: Language;
  scope: DestinationScope;
}

/** A destination row as a lane's target is made from it. */
export interface StoredTarget extends TargetSettings {
  urlSealed: string;
  secretSealed: string | null;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  status: string;
  updatedAtMs: number;
}

export const LANE_SCRIPTS = {
  /**
   * Takes the lanes of `ids` that no live dispatcher holds (free, expired, or already `owner`'s)
   * until `now + leaseMs`; returns those `owner` now holds.
   */
  claimLanes: write(
    async (
      { sql: db },
      { owner, ids, leaseMs, now }: { owner: string; ids: string[]; leaseMs: number; now: number },
    ): Promise<string[]> => {
      const held: string[] = [];
      for (const list of chunked(ids)) {
        await db
          .updateTable('WebhookDestination')
          .set({ leaseOwner: owner, leaseExpiresAt: new Date(now + leaseMs) })
          .where((eb) =>
            eb.and([
              eb.or([eb('leaseOwner', 'is', null), eb('leaseExpiresAt', '<', new Date(now)), eb('leaseOwner', '=', owner)]),
              eb('id', 'in', list),
            ]),
          )
          .execute();
        const rows = await db.selectFrom('WebhookDestination').select(['id', 'leaseOwner']).where('id', 'in', list).execute();
        for (const row of rows) if (row.leaseOwner === owner) held.push(row.id);
      }
      return held;
    },
  ),

  /** Extends `owner`'s leases to `now + leaseMs`; returns the lanes it still holds. */
  renewLanes: write(async ({ sql: db }, { owner, leaseMs, now }: { owner: string; leaseMs: number; now: number }): Promise<string[]> => {
    await db
      .updateTable('WebhookDestination')
      .set({ leaseExpiresAt: new Date(now + leaseMs) })
      .where('leaseOwner', '=', owner)
      .execute();
    const rows = await db.selectFrom('WebhookDestination').select('id').where('leaseOwner', '=', owner).execute();
    return rows.map((row) => row.id);
  }),

  /** Gives `owner`'s lanes back (only those of `ids` when given), so another dispatcher takes them at once. */
  releaseLanes: write(async ({ sql: db }, { owner, ids }: { owner: string; ids?: string[] | undefined }): Promise<void> => {
    const release = () =>
      db.updateTable('WebhookDestination').set({ leaseOwner: null, leaseExpiresAt: null }).where('leaseOwner', '=', owner);
    if (!ids) await release().execute();
    else for (const list of chunked(ids)) await release().where('id', 'in', list).execute();
  }),

  /** Whether any destination is active: whether signals have anyone to go to. */
  anyActiveDestination: probe(async ({ run }, _: object): Promise<boolean> => (await run(ANY_ACTIVE_DESTINATION, {})).length > 0),

  /** Active destinations that have deliveries waiting. */
  destinationsWithWork: probe(
    async ({ run }, _: object): Promise<string[]> => (await run(DESTINATIONS_WITH_WORK, {})).map((row) => row.id),
  ),

  /** What lanes need of each destination of `ids` still there (sealed values as stored). */
  destinationTargets: read(async ({ sql: db }, { ids }: { ids: string[] }): Promise<StoredTarget[]> => {
    const targets: StoredTarget[] = [];
    for (const list of chunked(ids)) {
      const rows = await db
        .selectFrom('WebhookDestination as d')
        .innerJoin('Organization as o', 'o.id', 'd.organization')
        .select([
          'd.id',
          'd.organization',
          'o.plan',
          'd.format',
          'd.language',
          'd.scope',
          'd.urlSealed',
          'd.secretSealed',
          'd.previousSecretSealed',
          'd.previousSecretExpiresAt',
          'd.status',
          'd.updatedAt',
        ])
        .where('d.id', 'in', list)
        .execute();
      for (const row of rows) {
        targets.push({
          id: row.id,
          organizationId: row.organization,
          plan: row.plan,
          format: row.format,
          language: row.language,
          scope: row.scope,
          urlSealed: row.urlSealed,
          secretSealed: row.secretSealed,
          previousSecretSealed: row.previousSecretSealed,
          previousSecretExpiresAt: row.previousSecretExpiresAt === null ? null : row.previousSecretExpiresAt.getTime(),
          status: row.status,
          updatedAtMs: row.updatedAt.getTime(),
        });
      }
    }
    return targets;
  }),

  /** The status and last change of each destination of `ids` still there. */
  destinationStamps: read(
    async ({ sql: db }, { ids }: { ids: string[] }): Promise<{ id: string; status: string; updatedAtMs: number }[]> => {
      const stamps: { id: string; status: string; updatedAtMs: number }[] = [];
      for (const list of chunked(ids)) {
        const rows = await db.selectFrom('WebhookDestination').select(['id', 'status', 'updatedAt']).where('id', 'in', list).execute();
        for (const row of rows) stamps.push({ id: row.id, status: row.status, updatedAtMs: row.updatedAt.getTime() });
      }
      return stamps;
    },
  ),
} satisfies Record<string, ScriptDefinition<never, unknown>>;
