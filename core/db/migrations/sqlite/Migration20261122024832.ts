import { Migration } from '@mikro-orm/migrations';

export class Migration20261122024832 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`api_usage\` (\`organization_id\` text not null, \`day\` text not null, \`calls\` integer not null default 0, primary key (\`organization_id\`, \`day\`));`);

    this.addSql(`create table \`change_epoch\` (\`id\` integer not null, \`value\` integer not null default 0, primary key (\`id\`));`);

    this.addSql(`create table \`members\` (\`id\` text not null, \`email\` text not null, \`name\` text not null, \`password_hash\` text null, \`credentials_epoch\` integer not null default 0, \`created_at\` datetime not null, primary key (\`id\`));`);
    this.addSql(`create unique index \`members_email_unique\` on \`members\` (\`email\`);`);

    this.addSql(`create table \`organizations\` (\`id\` text not null, \`name\` text not null, \`plan\` text check (\`plan\` in ('base', 'alpha', 'clan')) not null, \`listed\` integer not null default true, \`demo\` integer not null default false, \`complete\` integer not null default true, \`description\` text not null default '', \`website\` text null, \`logo_url\` text null, \`sectors\` json not null, \`capabilities\` json not null, \`networks\` json not null, \`city\` text null, \`region\` text null, \`country\` text null, \`partner_payments_due\` integer not null default 0, \`partner_payments_confirmed\` integer not null default 0, \`partners_count\` integer not null default 0, \`completed_packs\` integer not null default 0, \`references_count\` integer not null default 0, \`certifications_count\` integer not null default 0, \`billing_email\` text null, \`internal_notes\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, primary key (\`id\`));`);

    this.addSql(`create table \`needs\` (\`id\` text not null, \`organization_id\` text not null, \`title\` text not null, \`description\` text not null default '', \`required_expertise\` json not null, \`remote_allowed\` integer not null default false, \`city\` text null, \`region\` text null, \`country\` text null, \`deadline\` datetime null, \`state\` text check (\`state\` in ('draft', 'public', 'private', 'withdrawn')) not null, \`discreet\` integer not null default false, \`demo\` integer not null default false, \`version\` integer not null default 0, \`published_at\` datetime null, \`withdrawn_at\` datetime null, \`created_by_id\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`needs_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, constraint \`needs_created_by_id_foreign\` foreign key(\`created_by_id\`) references \`members\`(\`id\`) on delete set null on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`needs_organization_id_index\` on \`needs\` (\`organization_id\`);`);
    this.addSql(`create index \`needs_created_by_id_index\` on \`needs\` (\`created_by_id\`);`);
    this.addSql(`create index \`needs_public_feed_idx\` on \`needs\` (\`state\`, \`demo\`, \`published_at\`, \`id\`);`);

    this.addSql(`create table \`memberships\` (\`member_id\` text not null, \`organization_id\` text not null, \`role\` text check (\`role\` in ('admin', 'member')) not null, \`created_at\` datetime not null, constraint \`memberships_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on update cascade, constraint \`memberships_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`member_id\`, \`organization_id\`));`);
    this.addSql(`create index \`memberships_member_id_index\` on \`memberships\` (\`member_id\`);`);
    this.addSql(`create index \`memberships_organization_id_index\` on \`memberships\` (\`organization_id\`);`);

    this.addSql(`create table \`events\` (\`id\` text not null, \`host_id\` text not null, \`title\` text not null, \`description\` text not null default '', \`starts_at\` datetime not null, \`ends_at\` datetime not null, \`timezone\` text not null default 'UTC', \`online\` integer not null default false, \`city\` text null, \`region\` text null, \`country\` text null, \`status\` text check (\`status\` in ('public', 'cancelled')) not null, \`demo\` integer not null default false, \`version\` integer not null default 1, \`cancelled_at\` datetime null, \`host_contact_email\` text null, \`host_contact_phone\` text null, \`host_notes\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`events_host_id_foreign\` foreign key(\`host_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`events_host_id_index\` on \`events\` (\`host_id\`);`);
    this.addSql(`create index \`events_public_feed_idx\` on \`events\` (\`status\`, \`demo\`, \`starts_at\`, \`id\`);`);

    this.addSql(`create table \`contract_templates\` (\`id\` text not null, \`organization_id\` text not null, \`name\` text not null, \`body\` text not null, constraint \`contract_templates_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`contract_templates_organization_id_index\` on \`contract_templates\` (\`organization_id\`);`);

    this.addSql(`create table \`api_keys\` (\`id\` text not null, \`organization_id\` text not null, \`name\` text not null, \`prefix\` text not null, \`hash\` text not null, \`scopes\` json not null, \`expires_at\` datetime not null, \`revoked_at\` datetime null, \`last_used_at\` datetime null, \`created_at\` datetime not null, constraint \`api_keys_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`api_keys_organization_id_index\` on \`api_keys\` (\`organization_id\`);`);
    this.addSql(`create unique index \`api_keys_hash_unique\` on \`api_keys\` (\`hash\`);`);

    this.addSql(`create table \`outbox_events\` (\`seq\` integer not null primary key autoincrement, \`event_id\` text not null, \`type\` text check (\`type\` in ('need.created', 'need.updated', 'need.withdrawn', 'event.created', 'event.updated', 'event.cancelled')) not null, \`resource_id\` text not null, \`resource_version\` integer not null, \`organization_id\` text not null, \`deliverable\` integer not null, \`occurred_at\` datetime not null, \`data\` json not null);`);
    this.addSql(`create unique index \`outbox_events_event_id_unique\` on \`outbox_events\` (\`event_id\`);`);

    this.addSql(`create table \`packs\` (\`id\` text not null, \`need_id\` text null, \`lead_organization_id\` text not null, \`name\` text not null, \`status\` text check (\`status\` in ('forming', 'active', 'completed')) not null, \`created_at\` datetime not null, constraint \`packs_need_id_foreign\` foreign key(\`need_id\`) references \`needs\`(\`id\`) on delete set null on update cascade, constraint \`packs_lead_organization_id_foreign\` foreign key(\`lead_organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`packs_need_id_index\` on \`packs\` (\`need_id\`);`);
    this.addSql(`create index \`packs_lead_organization_id_index\` on \`packs\` (\`lead_organization_id\`);`);

    this.addSql(`create table \`milestones\` (\`id\` text not null, \`pack_id\` text not null, \`title\` text not null, \`amount_cents\` integer not null, \`due_at\` datetime not null, \`status\` text check (\`status\` in ('planned', 'delivered', 'accepted')) not null, constraint \`milestones_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`milestones_pack_id_index\` on \`milestones\` (\`pack_id\`);`);

    this.addSql(`create table \`collections\` (\`id\` text not null, \`pack_id\` text not null, \`amount_cents\` integer not null, \`currency\` text not null, \`payer_reference\` text not null, \`received_at\` datetime not null, constraint \`collections_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`collections_pack_id_index\` on \`collections\` (\`pack_id\`);`);

    this.addSql(`create table \`pack_documents\` (\`id\` text not null, \`pack_id\` text not null, \`filename\` text not null, \`storage_key\` text not null, \`summary\` text not null, constraint \`pack_documents_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`pack_documents_pack_id_index\` on \`pack_documents\` (\`pack_id\`);`);

    this.addSql(`create table \`pack_invitations\` (\`id\` text not null, \`pack_id\` text not null, \`member_id\` text not null, \`invited_by_id\` text not null, \`status\` text check (\`status\` in ('pending', 'accepted', 'refused')) not null, \`created_at\` datetime not null, constraint \`pack_invitations_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, constraint \`pack_invitations_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on update cascade, constraint \`pack_invitations_invited_by_id_foreign\` foreign key(\`invited_by_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`pack_invitations_pack_id_index\` on \`pack_invitations\` (\`pack_id\`);`);
    this.addSql(`create index \`pack_invitations_member_id_index\` on \`pack_invitations\` (\`member_id\`);`);
    this.addSql(`create index \`pack_invitations_invited_by_id_index\` on \`pack_invitations\` (\`invited_by_id\`);`);

    this.addSql(`create table \`pack_members\` (\`id\` text not null, \`pack_id\` text not null, \`organization_id\` text not null, \`positioning\` text not null, \`price_cents\` integer not null, \`currency\` text not null, constraint \`pack_members_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, constraint \`pack_members_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`pack_members_pack_id_index\` on \`pack_members\` (\`pack_id\`);`);
    this.addSql(`create index \`pack_members_organization_id_index\` on \`pack_members\` (\`organization_id\`);`);

    this.addSql(`create table \`pacts\` (\`id\` text not null, \`pack_id\` text not null, \`terms\` text not null, \`status\` text check (\`status\` in ('draft', 'sent', 'signed', 'void')) not null, constraint \`pacts_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`pacts_pack_id_index\` on \`pacts\` (\`pack_id\`);`);

    this.addSql(`create table \`pact_signatures\` (\`id\` text not null, \`pact_id\` text not null, \`member_id\` text not null, \`provider_envelope_id\` text not null, \`state\` text check (\`state\` in ('pending', 'signed', 'declined')) not null, \`signed_at\` datetime null, constraint \`pact_signatures_pact_id_foreign\` foreign key(\`pact_id\`) references \`pacts\`(\`id\`) on update cascade, constraint \`pact_signatures_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`pact_signatures_pact_id_index\` on \`pact_signatures\` (\`pact_id\`);`);
    this.addSql(`create index \`pact_signatures_member_id_index\` on \`pact_signatures\` (\`member_id\`);`);

    this.addSql(`create table \`payouts\` (\`id\` text not null, \`pack_id\` text not null, \`recipient_id\` text not null, \`amount_cents\` integer not null, \`currency\` text not null, \`status\` text check (\`status\` in ('scheduled', 'paid', 'confirmed')) not null, \`paid_at\` datetime null, constraint \`payouts_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, constraint \`payouts_recipient_id_foreign\` foreign key(\`recipient_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`payouts_pack_id_index\` on \`payouts\` (\`pack_id\`);`);
    this.addSql(`create index \`payouts_recipient_id_index\` on \`payouts\` (\`recipient_id\`);`);

    this.addSql(`create table \`payout_confirmations\` (\`id\` text not null, \`payout_id\` text not null, \`confirmed_by_id\` text not null, \`note\` text not null, \`confirmed_at\` datetime not null, constraint \`payout_confirmations_payout_id_foreign\` foreign key(\`payout_id\`) references \`payouts\`(\`id\`) on update cascade, constraint \`payout_confirmations_confirmed_by_id_foreign\` foreign key(\`confirmed_by_id\`) references \`members\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`payout_confirmations_payout_id_index\` on \`payout_confirmations\` (\`payout_id\`);`);
    this.addSql(`create index \`payout_confirmations_confirmed_by_id_index\` on \`payout_confirmations\` (\`confirmed_by_id\`);`);

    this.addSql(`create table \`private_clauses\` (\`id\` text not null, \`organization_id\` text not null, \`title\` text not null, \`body\` text not null, constraint \`private_clauses_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`private_clauses_organization_id_index\` on \`private_clauses\` (\`organization_id\`);`);

    this.addSql(`create table \`private_threads\` (\`id\` text not null, \`pack_id\` text not null, \`subject\` text not null, constraint \`private_threads_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`private_threads_pack_id_index\` on \`private_threads\` (\`pack_id\`);`);

    this.addSql(`create table \`quotes\` (\`id\` text not null, \`need_id\` text not null, \`pack_id\` text null, \`organization_id\` text not null, \`amount_cents\` integer not null, \`currency\` text not null, \`body\` text not null, \`status\` text check (\`status\` in ('draft', 'submitted', 'accepted', 'refused')) not null, constraint \`quotes_need_id_foreign\` foreign key(\`need_id\`) references \`needs\`(\`id\`) on update cascade, constraint \`quotes_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on delete set null on update cascade, constraint \`quotes_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`quotes_need_id_index\` on \`quotes\` (\`need_id\`);`);
    this.addSql(`create index \`quotes_pack_id_index\` on \`quotes\` (\`pack_id\`);`);
    this.addSql(`create index \`quotes_organization_id_index\` on \`quotes\` (\`organization_id\`);`);

    this.addSql(`create table \`revenue_splits\` (\`id\` text not null, \`pack_id\` text not null, \`frozen\` integer not null default false, \`shares\` json not null, \`total_cents\` integer not null, \`currency\` text not null, constraint \`revenue_splits_pack_id_foreign\` foreign key(\`pack_id\`) references \`packs\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`revenue_splits_pack_id_index\` on \`revenue_splits\` (\`pack_id\`);`);

    this.addSql(`create table \`settings\` (\`key\` text not null, \`value\` text not null, primary key (\`key\`));`);

    this.addSql(`create table \`thread_messages\` (\`id\` text not null, \`thread_id\` text not null, \`author_id\` text not null, \`body\` text not null, \`sent_at\` datetime not null, constraint \`thread_messages_thread_id_foreign\` foreign key(\`thread_id\`) references \`private_threads\`(\`id\`) on update cascade, constraint \`thread_messages_author_id_foreign\` foreign key(\`author_id\`) references \`members\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`thread_messages_thread_id_index\` on \`thread_messages\` (\`thread_id\`);`);
    this.addSql(`create index \`thread_messages_author_id_index\` on \`thread_messages\` (\`author_id\`);`);
  }

}
