import { Migration } from '@mikro-orm/migrations';

export class Migration20261126212321 extends Migration {

  override name = 'Migration20261126212321';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_key_usage" ("organization_id" varchar(64) not null, "day" varchar(10) not null, "key_id" varchar(40) not null, "answer" varchar(4) not null, "calls" int not null default 0, primary key ("organization_id", "day", "key_id", "answer"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_key_usage" cascade;`);
  }

}
