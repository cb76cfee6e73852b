import { Migration } from '@mikro-orm/migrations';

export class Migration20261122024832 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "api_usage" ("organization_id" varchar(64) not null, "day" varchar(10) not null, "calls" int not null default 0, constraint "api_usage_pkey" primary key ("organization_id", "day"));`);

    this.addSql(`create table "change_epoch" ("id" int not null, "value" int not null default 0, constraint "change_epoch_pkey" primary key ("id"));`);

    this.addSql(`create table "members" ("id" varchar(40) not null, "email" varchar(320) not null, "name" varchar(200) not null, "password_hash" varchar(300) null, "credentials_epoch" int not null default 0, "created_at" timestamptz not null, constraint "members_pkey" primary key ("id"));`);
    this.addSql(`alter table "members" add constraint "members_email_unique" unique ("email");`);

    this.addSql(`create table "organizations" ("id" varchar(64) not null, "name" varchar(200) not null, "plan" text check ("plan" in ('base', 'alpha', 'clan')) not null, "listed" boolean not null default true, "demo" boolean not null default false, "complete" boolean not null default true, "description" text not null default '', "website" varchar(500) null, "logo_url" varchar(500) null, "sectors" jsonb not null, "capabilities" jsonb not null, "networks" jsonb not null, "city" varchar(120) null, "region" varchar(120) null, "country" varchar(2) null, "partner_payments_due" int not null default 0, "partner_payments_confirmed" int not null default 0, "partners_count" int not null default 0, "completed_packs" int not null default 0, "references_count" int not null default 0, "certifications_count" int not null default 0, "billing_email" varchar(320) null, "internal_notes" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "organizations_pkey" primary key ("id"));`);

    this.addSql(`create table "needs" ("id" varchar(40) not null, "organization_id" varchar(64) not null, "title" varchar(200) not null, "description" text not null default '', "required_expertise" jsonb not null, "remote_allowed" boolean not null default false, "city" varchar(120) null, "region" varchar(120) null, "country" varchar(2) null, "deadline" timestamptz null, "state" text check ("state" in ('draft', 'public', 'private', 'withdrawn')) not null, "discreet" boolean not null default false, "demo" boolean not null default false, "version" int not null default 0, "published_at" timestamptz null, "withdrawn_at" timestamptz null, "created_by_id" varchar(40) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "needs_pkey" primary key ("id"));`);
    this.addSql(`create index "needs_public_feed_idx" on "needs" ("state", "demo", "published_at", "id");`);

    this.addSql(`create table "memberships" ("member_id" varchar(40) not null, "organization_id" varchar(64) not null, "role" text check ("role" in ('admin', 'member')) not null, "created_at" timestamptz not null, constraint "memberships_pkey" primary key ("member_id", "organization_id"));`);

    this.addSql(`create table "events" ("id" varchar(40) not null, "host_id" varchar(64) not null, "title" varchar(200) not null, "description" text not null default '', "starts_at" timestamptz not null, "ends_at" timestamptz not null, "timezone" varchar(64) not null default 'UTC', "online" boolean not null default false, "city" varchar(120) null, "region" varchar(120) null, "country" varchar(2) null, "status" text check ("status" in ('public', 'cancelled')) not null, "demo" boolean not null default false, "version" int not null default 1, "cancelled_at" timestamptz null, "host_contact_email" varchar(320) null, "host_contact_phone" varchar(40) null, "host_notes" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "events_pkey" primary key ("id"));`);
    this.addSql(`create index "events_public_feed_idx" on "events" ("status", "demo", "starts_at", "id");`);

    this.addSql(`create table "contract_templates" ("id" varchar(40) not null, "organization_id" varchar(64) not null, "name" varchar(200) not null, "body" text not null, constraint "contract_templates_pkey" primary key ("id"));`);

    this.addSql(`create table "api_keys" ("id" varchar(40) not null, "organization_id" varchar(64) not null, "name" varchar(100) not null, "prefix" varchar(20) not null, "hash" varchar(64) not null, "scopes" jsonb not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, "created_at" timestamptz not null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_hash_unique" unique ("hash");`);

    this.addSql(`create table "outbox_events" ("seq" serial primary key, "event_id" varchar(200) not null, "type" text check ("type" in ('need.created', 'need.updated', 'need.withdrawn', 'event.created', 'event.updated', 'event.cancelled')) not null, "resource_id" varchar(40) not null, "resource_version" int not null, "organization_id" varchar(64) not null, "deliverable" boolean not null, "occurred_at" timestamptz not null, "data" jsonb not null);`);
    this.addSql(`alter table "outbox_events" add constraint "outbox_events_event_id_unique" unique ("event_id");`);

    this.addSql(`create table "packs" ("id" varchar(40) not null, "need_id" varchar(40) null, "lead_organization_id" varchar(64) not null, "name" varchar(200) not null, "status" text check ("status" in ('forming', 'active', 'completed')) not null, "created_at" timestamptz not null, constraint "packs_pkey" primary key ("id"));`);

    this.addSql(`create table "milestones" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "title" varchar(200) not null, "amount_cents" int not null, "due_at" timestamptz not null, "status" text check ("status" in ('planned', 'delivered', 'accepted')) not null, constraint "milestones_pkey" primary key ("id"));`);

    this.addSql(`create table "collections" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "amount_cents" int not null, "currency" varchar(3) not null, "payer_reference" varchar(200) not null, "received_at" timestamptz not null, constraint "collections_pkey" primary key ("id"));`);

    this.addSql(`create table "pack_documents" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "filename" varchar(255) not null, "storage_key" varchar(500) not null, "summary" text not null, constraint "pack_documents_pkey" primary key ("id"));`);

    this.addSql(`create table "pack_invitations" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "member_id" varchar(40) not null, "invited_by_id" varchar(64) not null, "status" text check ("status" in ('pending', 'accepted', 'refused')) not null, "created_at" timestamptz not null, constraint "pack_invitations_pkey" primary key ("id"));`);

    this.addSql(`create table "pack_members" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "organization_id" varchar(64) not null, "positioning" text not null, "price_cents" int not null, "currency" varchar(3) not null, constraint "pack_members_pkey" primary key ("id"));`);

    this.addSql(`create table "pacts" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "terms" text not null, "status" text check ("status" in ('draft', 'sent', 'signed', 'void')) not null, constraint "pacts_pkey" primary key ("id"));`);

    this.addSql(`create table "pact_signatures" ("id" varchar(40) not null, "pact_id" varchar(40) not null, "member_id" varchar(40) not null, "provider_envelope_id" varchar(200) not null, "state" text check ("state" in ('pending', 'signed', 'declined')) not null, "signed_at" timestamptz null, constraint "pact_signatures_pkey" primary key ("id"));`);

    this.addSql(`create table "payouts" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "recipient_id" varchar(64) not null, "amount_cents" int not null, "currency" varchar(3) not null, "status" text check ("status" in ('scheduled', 'paid', 'confirmed')) not null, "paid_at" timestamptz null, constraint "payouts_pkey" primary key ("id"));`);

    this.addSql(`create table "payout_confirmations" ("id" varchar(40) not null, "payout_id" varchar(40) not null, "confirmed_by_id" varchar(40) not null, "note" text not null, "confirmed_at" timestamptz not null, constraint "payout_confirmations_pkey" primary key ("id"));`);

    this.addSql(`create table "private_clauses" ("id" varchar(40) not null, "organization_id" varchar(64) not null, "title" varchar(200) not null, "body" text not null, constraint "private_clauses_pkey" primary key ("id"));`);

    this.addSql(`create table "private_threads" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "subject" varchar(200) not null, constraint "private_threads_pkey" primary key ("id"));`);

    this.addSql(`create table "quotes" ("id" varchar(40) not null, "need_id" varchar(40) not null, "pack_id" varchar(40) null, "organization_id" varchar(64) not null, "amount_cents" int not null, "currency" varchar(3) not null, "body" text not null, "status" text check ("status" in ('draft', 'submitted', 'accepted', 'refused')) not null, constraint "quotes_pkey" primary key ("id"));`);

    this.addSql(`create table "revenue_splits" ("id" varchar(40) not null, "pack_id" varchar(40) not null, "frozen" boolean not null default false, "shares" jsonb not null, "total_cents" int not null, "currency" varchar(3) not null, constraint "revenue_splits_pkey" primary key ("id"));`);

    this.addSql(`create table "settings" ("key" varchar(100) not null, "value" text not null, constraint "settings_pkey" primary key ("key"));`);

    this.addSql(`create table "thread_messages" ("id" varchar(40) not null, "thread_id" varchar(40) not null, "author_id" varchar(40) not null, "body" text not null, "sent_at" timestamptz not null, constraint "thread_messages_pkey" primary key ("id"));`);

    this.addSql(`alter table "needs" add constraint "needs_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);
    this.addSql(`alter table "needs" add constraint "needs_created_by_id_foreign" foreign key ("created_by_id") references "members" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "memberships" add constraint "memberships_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "events" add constraint "events_host_id_foreign" foreign key ("host_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "contract_templates" add constraint "contract_templates_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "packs" add constraint "packs_need_id_foreign" foreign key ("need_id") references "needs" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "packs" add constraint "packs_lead_organization_id_foreign" foreign key ("lead_organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "milestones" add constraint "milestones_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);

    this.addSql(`alter table "collections" add constraint "collections_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);

    this.addSql(`alter table "pack_documents" add constraint "pack_documents_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);

    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);
    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade;`);
    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_invited_by_id_foreign" foreign key ("invited_by_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "pack_members" add constraint "pack_members_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);
    this.addSql(`alter table "pack_members" add constraint "pack_members_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "pacts" add constraint "pacts_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);

    this.addSql(`alter table "pact_signatures" add constraint "pact_signatures_pact_id_foreign" foreign key ("pact_id") references "pacts" ("id") on update cascade;`);
    this.addSql(`alter table "pact_signatures" add constraint "pact_signatures_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade;`);

    this.addSql(`alter table "payouts" add constraint "payouts_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);
    this.addSql(`alter table "payouts" add constraint "payouts_recipient_id_foreign" foreign key ("recipient_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "payout_confirmations" add constraint "payout_confirmations_payout_id_foreign" foreign key ("payout_id") references "payouts" ("id") on update cascade;`);
    this.addSql(`alter table "payout_confirmations" add constraint "payout_confirmations_confirmed_by_id_foreign" foreign key ("confirmed_by_id") references "members" ("id") on update cascade;`);

    this.addSql(`alter table "private_clauses" add constraint "private_clauses_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "private_threads" add constraint "private_threads_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);

    this.addSql(`alter table "quotes" add constraint "quotes_need_id_foreign" foreign key ("need_id") references "needs" ("id") on update cascade;`);
    this.addSql(`alter table "quotes" add constraint "quotes_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "quotes" add constraint "quotes_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade;`);

    this.addSql(`alter table "revenue_splits" add constraint "revenue_splits_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade;`);

    this.addSql(`alter table "thread_messages" add constraint "thread_messages_thread_id_foreign" foreign key ("thread_id") references "private_threads" ("id") on update cascade;`);
    this.addSql(`alter table "thread_messages" add constraint "thread_messages_author_id_foreign" foreign key ("author_id") references "members" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "needs" drop constraint "needs_created_by_id_foreign";`);

    this.addSql(`alter table "memberships" drop constraint "memberships_member_id_foreign";`);

    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_member_id_foreign";`);

    this.addSql(`alter table "pact_signatures" drop constraint "pact_signatures_member_id_foreign";`);

    this.addSql(`alter table "payout_confirmations" drop constraint "payout_confirmations_confirmed_by_id_foreign";`);

    this.addSql(`alter table "thread_messages" drop constraint "thread_messages_author_id_foreign";`);

    this.addSql(`alter table "needs" drop constraint "needs_organization_id_foreign";`);

    this.addSql(`alter table "memberships" drop constraint "memberships_organization_id_foreign";`);

    this.addSql(`alter table "events" drop constraint "events_host_id_foreign";`);

    this.addSql(`alter table "contract_templates" drop constraint "contract_templates_organization_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_organization_id_foreign";`);

    this.addSql(`alter table "packs" drop constraint "packs_lead_organization_id_foreign";`);

    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_invited_by_id_foreign";`);

    this.addSql(`alter table "pack_members" drop constraint "pack_members_organization_id_foreign";`);

    this.addSql(`alter table "payouts" drop constraint "payouts_recipient_id_foreign";`);

    this.addSql(`alter table "private_clauses" drop constraint "private_clauses_organization_id_foreign";`);

    this.addSql(`alter table "quotes" drop constraint "quotes_organization_id_foreign";`);

    this.addSql(`alter table "packs" drop constraint "packs_need_id_foreign";`);

    this.addSql(`alter table "quotes" drop constraint "quotes_need_id_foreign";`);

    this.addSql(`alter table "milestones" drop constraint "milestones_pack_id_foreign";`);

    this.addSql(`alter table "collections" drop constraint "collections_pack_id_foreign";`);

    this.addSql(`alter table "pack_documents" drop constraint "pack_documents_pack_id_foreign";`);

    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_pack_id_foreign";`);

    this.addSql(`alter table "pack_members" drop constraint "pack_members_pack_id_foreign";`);

    this.addSql(`alter table "pacts" drop constraint "pacts_pack_id_foreign";`);

    this.addSql(`alter table "payouts" drop constraint "payouts_pack_id_foreign";`);

    this.addSql(`alter table "private_threads" drop constraint "private_threads_pack_id_foreign";`);

    this.addSql(`alter table "quotes" drop constraint "quotes_pack_id_foreign";`);

    this.addSql(`alter table "revenue_splits" drop constraint "revenue_splits_pack_id_foreign";`);

    this.addSql(`alter table "pact_signatures" drop constraint "pact_signatures_pact_id_foreign";`);

    this.addSql(`alter table "payout_confirmations" drop constraint "payout_confirmations_payout_id_foreign";`);

    this.addSql(`alter table "thread_messages" drop constraint "thread_messages_thread_id_foreign";`);

    this.addSql(`drop table if exists "api_usage" cascade;`);

    this.addSql(`drop table if exists "change_epoch" cascade;`);

    this.addSql(`drop table if exists "members" cascade;`);

    this.addSql(`drop table if exists "organizations" cascade;`);

    this.addSql(`drop table if exists "needs" cascade;`);

    this.addSql(`drop table if exists "memberships" cascade;`);

    this.addSql(`drop table if exists "events" cascade;`);

    this.addSql(`drop table if exists "contract_templates" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "outbox_events" cascade;`);

    this.addSql(`drop table if exists "packs" cascade;`);

    this.addSql(`drop table if exists "milestones" cascade;`);

    this.addSql(`drop table if exists "collections" cascade;`);

    this.addSql(`drop table if exists "pack_documents" cascade;`);

    this.addSql(`drop table if exists "pack_invitations" cascade;`);

    this.addSql(`drop table if exists "pack_members" cascade;`);

    this.addSql(`drop table if exists "pacts" cascade;`);

    this.addSql(`drop table if exists "pact_signatures" cascade;`);

    this.addSql(`drop table if exists "payouts" cascade;`);

    this.addSql(`drop table if exists "payout_confirmations" cascade;`);

    this.addSql(`drop table if exists "private_clauses" cascade;`);

    this.addSql(`drop table if exists "private_threads" cascade;`);

    this.addSql(`drop table if exists "quotes" cascade;`);

    this.addSql(`drop table if exists "revenue_splits" cascade;`);

    this.addSql(`drop table if exists "settings" cascade;`);

    this.addSql(`drop table if exists "thread_messages" cascade;`);
  }

}
