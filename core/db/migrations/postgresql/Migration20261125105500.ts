import { Migration } from '@mikro-orm/migrations';

// Webhook destinations get a name and a description, to tell them apart (empty for older ones).
export class Migration20261125105500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_destinations" add column "name" varchar(100) not null default '', add column "description" varchar(500) not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_destinations" drop column "name", drop column "description";`);
  }

}
