import { Migration } from '@mikro-orm/migrations';

export class Migration20261122063724 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "assistant_clients" ("id" varchar(40) not null, "name" varchar(200) not null, "redirect_uris" jsonb not null, "created_at" timestamptz not null, constraint "assistant_clients_pkey" primary key ("id"));`);

    this.addSql(`create table "assistant_authorization_codes" ("code_hash" varchar(64) not null, "client_id" varchar(40) not null, "member_id" varchar(40) not null, "scopes" jsonb not null, "code_challenge" varchar(128) not null, "redirect_uri" text not null, "resource" varchar(500) not null, "credentials_epoch" int not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "grant_id" varchar(40) null, "created_at" timestamptz not null, constraint "assistant_authorization_codes_pkey" primary key ("code_hash"));`);

    this.addSql(`create table "assistant_grants" ("id" varchar(40) not null, "member_id" varchar(40) not null, "client_id" varchar(40) not null, "scopes" jsonb not null, "credentials_epoch" int not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, "revoked_reason" varchar(40) null, constraint "assistant_grants_pkey" primary key ("id"));`);
    this.addSql(`create index "assistant_grants_member_idx" on "assistant_grants" ("member_id", "revoked_at");`);

    this.addSql(`create table "assistant_tokens" ("hash" varchar(64) not null, "grant_id" varchar(40) not null, "kind" text check ("kind" in ('access', 'refresh')) not null, "scopes" jsonb not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "revoked_at" timestamptz null, "created_at" timestamptz not null, constraint "assistant_tokens_pkey" primary key ("hash"));`);
    this.addSql(`create index "assistant_tokens_grant_idx" on "assistant_tokens" ("grant_id");`);

    this.addSql(`create table "assistant_audit_entries" ("id" serial primary key, "member_id" varchar(40) not null, "grant_id" varchar(40) not null, "client_id" varchar(40) not null, "client_name" varchar(200) not null, "tool" varchar(60) not null, "outcome" varchar(40) not null, "at" timestamptz not null);`);
    this.addSql(`create index "assistant_audit_member_idx" on "assistant_audit_entries" ("member_id", "id");`);

    this.addSql(`create table "member_sessions" ("id_hash" varchar(64) not null, "member_id" varchar(40) not null, "credentials_epoch" int not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "ended_at" timestamptz null, constraint "member_sessions_pkey" primary key ("id_hash"));`);
    this.addSql(`create index "member_sessions_member_idx" on "member_sessions" ("member_id");`);

    this.addSql(`alter table "assistant_authorization_codes" add constraint "assistant_authorization_codes_client_id_foreign" foreign key ("client_id") references "assistant_clients" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assistant_authorization_codes" add constraint "assistant_authorization_codes_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assistant_grants" add constraint "assistant_grants_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assistant_grants" add constraint "assistant_grants_client_id_foreign" foreign key ("client_id") references "assistant_clients" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assistant_tokens" add constraint "assistant_tokens_grant_id_foreign" foreign key ("grant_id") references "assistant_grants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assistant_audit_entries" add constraint "assistant_audit_entries_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assistant_audit_entries" add constraint "assistant_audit_entries_grant_id_foreign" foreign key ("grant_id") references "assistant_grants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "member_sessions" add constraint "member_sessions_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "assistant_authorization_codes" drop constraint "assistant_authorization_codes_client_id_foreign";`);

    this.addSql(`alter table "assistant_grants" drop constraint "assistant_grants_client_id_foreign";`);

    this.addSql(`alter table "assistant_tokens" drop constraint "assistant_tokens_grant_id_foreign";`);

    this.addSql(`alter table "assistant_audit_entries" drop constraint "assistant_audit_entries_grant_id_foreign";`);

    this.addSql(`drop table if exists "assistant_clients" cascade;`);

    this.addSql(`drop table if exists "assistant_authorization_codes" cascade;`);

    this.addSql(`drop table if exists "assistant_grants" cascade;`);

    this.addSql(`drop table if exists "assistant_tokens" cascade;`);

    this.addSql(`drop table if exists "assistant_audit_entries" cascade;`);

    this.addSql(`drop table if exists "member_sessions" cascade;`);
  }

}
