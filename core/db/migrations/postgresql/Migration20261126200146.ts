import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200146 extends Migration {

  override name = 'Migration20261126200146';

  override up(): void | Promise<void> {
    this.addSql(`create table "password_resets" ("token_hash" varchar(64) not null, "member_id" varchar(40) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("token_hash"));`);
    this.addSql(`create index "password_resets_member_idx" on "password_resets" ("member_id");`);

    this.addSql(`alter table "password_resets" add constraint "password_resets_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "password_resets" cascade;`);
  }

}
