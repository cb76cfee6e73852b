import { Migration } from '@mikro-orm/migrations';

// A destination's deliveries and their attempts, and an e-signature connection's applied
// notifications, go with it: ON DELETE CASCADE, as the entities declare (the services deleted them
// by hand before). SQLite changes a foreign key only by rebuilding the table, its own way: create
// the new table, copy the rows, drop the old one, rename, recreate the indexes, and keep the
// AUTOINCREMENT counter so that no id is handed out twice. Foreign keys must be off meanwhile:
// `migrate` (core/db/orm.ts) turns them off around its transaction and runs
// `pragma foreign_key_check` before committing. With them on, dropping webhook_deliveries would
// run delivery_attempts' new cascade and empty it. Each table keeps its definition word for word
// but for the rule.

interface Rebuilt {
  name: string;
  columns: string[];
  /** The table's definition, given the ON DELETE clause of its foreign key ('' for none). */
  definition: (onDelete: string) => string;
  indexes: string[];
  autoincrement: boolean;
}

const TABLES: Rebuilt[] = [
  {
    name: 'webhook_deliveries',
    columns: ['id', 'destination_id', 'organization_id', 'seq', 'event_id', 'type', 'envelope', 'test', 'status', 'attempts', 'next_attempt_at', 'last_status_code', 'last_error', 'last_attempt_at', 'delivered_at', 'created_at'],
    definition: (onDelete) => `("id" text not null, "destination_id" text not null, "organization_id" text not null, "seq" integer not null, "event_id" text not null, "type" text not null, "envelope" json not null, "test" integer not null default false, "status" text check ("status" in ('pending', 'succeeded', 'failed')) not null default 'pending', "attempts" integer not null default 0, "next_attempt_at" datetime not null, "last_status_code" integer null, "last_error" text null, "last_attempt_at" datetime null, "delivered_at" datetime null, "created_at" datetime not null, constraint "webhook_deliveries_destination_id_foreign" foreign key("destination_id") references "webhook_destinations"("id") on update cascade${onDelete}, primary key ("id"))`,
    indexes: [
      `create index "webhook_deliveries_lane_idx" on "webhook_deliveries" ("destination_id", "status", "seq")`,
      `create index "webhook_deliveries_org_idx" on "webhook_deliveries" ("organization_id", "created_at")`,
    ],
    autoincrement: false,
  },
  {
    name: 'delivery_attempts',
    columns: ['id', 'delivery_id', 'number', 'at', 'duration_ms', 'status_code', 'error', 'response_excerpt', 'request_headers', 'response_headers'],
    definition: (onDelete) => `("id" integer not null primary key autoincrement, "delivery_id" text not null, "number" integer not null, "at" datetime not null, "duration_ms" integer not null, "status_code" integer null, "error" text null, "response_excerpt" text null, "request_headers" text null, "response_headers" text null, constraint "delivery_attempts_delivery_id_foreign" foreign key("delivery_id") references "webhook_deliveries"("id") on update cascade${onDelete})`,
    indexes: [`create index "delivery_attempts_delivery_idx" on "delivery_attempts" ("delivery_id", "number")`],
    autoincrement: true,
  },
  {
    name: 'esign_inbound_events',
    columns: ['id', 'connection_id', 'provider_event_id', 'received_at'],
    definition: (onDelete) => `("id" integer not null primary key autoincrement, "connection_id" text not null, "provider_event_id" text not null, "received_at" datetime not null, constraint "esign_inbound_events_connection_id_foreign" foreign key("connection_id") references "esign_connections"("id") on update cascade${onDelete})`,
    indexes: [
      `create index "esign_inbound_events_connection_id_index" on "esign_inbound_events" ("connection_id")`,
      `create unique index "esign_inbound_events_once" on "esign_inbound_events" ("connection_id", "provider_event_id")`,
    ],
    autoincrement: true,
  },
];

function rebuild(table: Rebuilt, onDelete: string): string[] {
  const { name } = table;
  const temporary = `${name}__rebuilt`;
  const columns = table.columns.map((column) => `"${column}"`).join(', ');
  return [
    `create table "${temporary}" ${table.definition(onDelete)};`,
    `insert into "${temporary}" (${columns}) select ${columns} from "${name}";`,
    // The copy set the new counter to the highest id copied; the old one may be past it.
    ...(table.autoincrement
      ? [
          `delete from sqlite_sequence where name = '${temporary}';`,
          `insert into sqlite_sequence (name, seq) select '${temporary}', seq from sqlite_sequence where name = '${name}';`,
        ]
      : []),
    `drop table "${name}";`,
    `alter table "${temporary}" rename to "${name}";`,
    ...table.indexes.map((index) => `${index};`),
  ];
}

export class Migration20261126171500 extends Migration {

  override async up(): Promise<void> {
    await this.rebuildAll(' on delete cascade');
  }

  override async down(): Promise<void> {
    await this.rebuildAll('');
  }

  private async rebuildAll(onDelete: string): Promise<void> {
    const [state] = await this.execute('pragma foreign_keys');
    if (state?.foreign_keys !== 0)
      throw new Error('This migration rebuilds tables and must run with foreign keys off: apply it with migrate() from core/db/orm.ts');
    for (const table of TABLES) for (const sql of rebuild(table, onDelete)) this.addSql(sql);
  }

}
