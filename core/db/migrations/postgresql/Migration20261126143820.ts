import { Migration } from '@mikro-orm/migrations';

// Registered applications remember their last use: one never used expires 30 days after its
// registration. Applications a member already approved count as used (their latest grant).
export class Migration20261126143820 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "assistant_clients" add column "last_used_at" timestamptz null;`);
    this.addSql(`create index "assistant_clients_unused_idx" on "assistant_clients" ("last_used_at", "created_at");`);
    this.addSql(`update "assistant_clients" set "last_used_at" = (select max(coalesce(g."last_used_at", g."created_at")) from "assistant_grants" g where g."client_id" = "assistant_clients"."id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "assistant_clients_unused_idx";`);
    this.addSql(`alter table "assistant_clients" drop column "last_used_at";`);
  }

}
