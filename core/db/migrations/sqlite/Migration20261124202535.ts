import { Migration } from '@mikro-orm/migrations';

// The lane index (destination_id, status, seq) and the attempts index (delivery_id, number) start
// with the foreign key, so the single-column indexes on it served no query and cost every delivery
// write two more b-tree updates. Trimmed from the generator's output, which also rebuilt unchanged
// tables. PostgreSQL never had these indexes.
export class Migration20261124202535 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index if exists \`webhook_deliveries_destination_id_index\`;`);
    this.addSql(`drop index if exists \`delivery_attempts_delivery_id_index\`;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index \`webhook_deliveries_destination_id_index\` on \`webhook_deliveries\` (\`destination_id\`);`);
    this.addSql(`create index \`delivery_attempts_delivery_id_index\` on \`delivery_attempts\` (\`delivery_id\`);`);
  }

}
