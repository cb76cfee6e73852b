import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053820 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "esign_connections" ("id" varchar(40) not null, "organization_id" varchar(64) not null, "provider" varchar(60) not null, "secret_sealed" text not null, "created_at" timestamptz not null, constraint "esign_connections_pkey" primary key ("id"));`);

    this.addSql(`create table "esign_inbound_events" ("id" serial primary key, "connection_id" varchar(40) not null, "provider_event_id" varchar(200) not null, "received_at" timestamptz not null);`);
    this.addSql(`alter table "esign_inbound_events" add constraint "esign_inbound_events_once" unique ("connection_id", "provider_event_id");`);

    this.addSql(`create table "team_chat_authorizations" ("state_hash" varchar(64) not null, "organization_id" varchar(64) not null, "language" varchar(5) not null, "kinds" jsonb not null, "scope" varchar(10) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "team_chat_authorizations_pkey" primary key ("state_hash"));`);

    this.addSql(`create table "webhook_destinations" ("id" varchar(40) not null, "organization_id" varchar(64) not null, "format" text check ("format" in ('standard-json', 'team-chat', 'collaboration-suite')) not null, "url_sealed" text not null, "url_masked" varchar(300) not null, "language" text check ("language" in ('en', 'fr')) not null, "kinds" jsonb not null, "scope" text check ("scope" in ('platform', 'own')) not null, "connected_via" text check ("connected_via" in ('manual', 'oauth')) not null default 'manual', "secret_sealed" text null, "previous_secret_sealed" text null, "previous_secret_expires_at" timestamptz null, "status" text check ("status" in ('active', 'disabled')) not null default 'active', "disabled_reason" varchar(300) null, "since_seq" int not null, "lease_owner" varchar(80) null, "lease_expires_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_destinations_pkey" primary key ("id"));`);

    this.addSql(`create table "webhook_deliveries" ("id" varchar(40) not null, "destination_id" varchar(40) not null, "organization_id" varchar(64) not null, "seq" int not null, "event_id" varchar(200) not null, "type" varchar(40) not null, "envelope" jsonb not null, "test" boolean not null default false, "status" text check ("status" in ('pending', 'succeeded', 'failed')) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "last_status_code" int null, "last_error" varchar(300) null, "last_attempt_at" timestamptz null, "delivered_at" timestamptz null, "created_at" timestamptz not null, constraint "webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_lane_idx" on "webhook_deliveries" ("destination_id", "status", "seq");`);
    this.addSql(`create index "webhook_deliveries_org_idx" on "webhook_deliveries" ("organization_id", "created_at");`);

    this.addSql(`create table "delivery_attempts" ("id" serial primary key, "delivery_id" varchar(40) not null, "number" int not null, "at" timestamptz not null, "duration_ms" int not null, "status_code" int null, "error" varchar(300) null, "response_excerpt" text null);`);
    this.addSql(`create index "delivery_attempts_delivery_idx" on "delivery_attempts" ("delivery_id", "number");`);

    this.addSql(`alter table "esign_connections" add constraint "esign_connections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "esign_inbound_events" add constraint "esign_inbound_events_connection_id_foreign" foreign key ("connection_id") references "esign_connections" ("id") on update cascade;`);

    this.addSql(`alter table "team_chat_authorizations" add constraint "team_chat_authorizations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "webhook_destinations" add constraint "webhook_destinations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_destination_id_foreign" foreign key ("destination_id") references "webhook_destinations" ("id") on update cascade;`);

    this.addSql(`alter table "delivery_attempts" add constraint "delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade;`);

    this.addSql(`alter table "outbox_events" add column "fanned_out_at" timestamptz null;`);
    this.addSql(`create index "outbox_events_fan_out_idx" on "outbox_events" ("fanned_out_at", "seq");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "esign_inbound_events" drop constraint "esign_inbound_events_connection_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_destination_id_foreign";`);

    this.addSql(`alter table "delivery_attempts" drop constraint "delivery_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "esign_connections" cascade;`);

    this.addSql(`drop table if exists "esign_inbound_events" cascade;`);

    this.addSql(`drop table if exists "team_chat_authorizations" cascade;`);

    this.addSql(`drop table if exists "webhook_destinations" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "delivery_attempts" cascade;`);

    this.addSql(`drop index "outbox_events_fan_out_idx";`);
    this.addSql(`alter table "outbox_events" drop column "fanned_out_at";`);
  }

}
