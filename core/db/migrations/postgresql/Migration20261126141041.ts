import { Migration } from '@mikro-orm/migrations';

// Ids claimed once for every instance and restart: a one-time secret shown once stays shown.
export class Migration20261126141041 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "once_marks" ("id" varchar(100) not null, "expires_at" timestamptz not null, constraint "once_marks_pkey" primary key ("id"));`);
    this.addSql(`create index "once_marks_expires_idx" on "once_marks" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "once_marks" cascade;`);
  }

}
