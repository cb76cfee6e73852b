import { Migration } from '@mikro-orm/migrations';

// A destination's deliveries and their attempts, and an e-signature connection's applied
// notifications, go with it: ON DELETE CASCADE, as the entities declare (the services deleted them
// by hand before).
const KEYS = [
  { table: 'esign_inbound_events', column: 'connection_id', parent: 'esign_connections' },
  { table: 'webhook_deliveries', column: 'destination_id', parent: 'webhook_destinations' },
  { table: 'delivery_attempts', column: 'delivery_id', parent: 'webhook_deliveries' },
];

export class Migration20261126171500 extends Migration {

  override async up(): Promise<void> {
    this.replaceKeys(' on delete cascade');
  }

  override async down(): Promise<void> {
    this.replaceKeys('');
  }

  private replaceKeys(onDelete: string): void {
    for (const { table, column, parent } of KEYS) {
      const name = `${table}_${column}_foreign`;
      this.addSql(`alter table "${table}" drop constraint "${name}", add constraint "${name}" foreign key ("${column}") references "${parent}" ("id") on update cascade${onDelete};`);
    }
  }

}
