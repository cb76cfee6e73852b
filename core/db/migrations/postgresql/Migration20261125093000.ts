import { Migration } from '@mikro-orm/migrations';

// What each transaction touched, for fine-grained cache retirement (core/components/change-feed.ts).
export class Migration20261125093000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "changes" ("seq" serial primary key, "kind" varchar(20) not null, "resource_id" varchar(64) not null, "lists" varchar(100) not null default '', "at" timestamptz not null);`);
    this.addSql(`create index "changes_at_idx" on "changes" ("at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "changes" cascade;`);
  }

}
