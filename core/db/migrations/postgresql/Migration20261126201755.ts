import { Migration } from '@mikro-orm/migrations';

export class Migration20261126201755 extends Migration {

  override name = 'Migration20261126201755';

  override up(): void | Promise<void> {
    this.addSql(`create table "organization_invitations" ("id" varchar(40) not null, "token_hash" varchar(64) not null, "organization_id" varchar(64) not null, "email" varchar(320) not null, "role" text not null, "invited_by_id" varchar(40) null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "organization_invitations_organization_idx" on "organization_invitations" ("organization_id");`);

    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_invited_by_id_foreign" foreign key ("invited_by_id") references "members" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "organization_invitations" add constraint "organization_invitations_role_check" check ("role" in ('admin', 'member'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "organization_invitations" cascade;`);
  }

}
