import { Migration } from '@mikro-orm/migrations';

export class Migration20261126174437 extends Migration {

  override name = 'Migration20261126174437';

  override up(): void | Promise<void> {
    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_authorization_codes__temp_alter\` (\`code_hash\` text not null primary key, \`client_id\` text not null, \`member_id\` text not null, \`scopes\` json not null, \`code_challenge\` text not null, \`redirect_uri\` text not null, \`resource\` text not null, \`credentials_epoch\` integer not null, \`expires_at\` datetime not null, \`used_at\` datetime null, \`grant_id\` text null, \`created_at\` datetime not null, constraint \`assistant_authorization_codes_client_id_foreign\` foreign key (\`client_id\`) references \`assistant_clients\` (\`id\`) on delete cascade, constraint \`assistant_authorization_codes_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`assistant_authorization_codes__temp_alter\` select \`code_hash\`, \`client_id\`, \`member_id\`, \`scopes\`, \`code_challenge\`, \`redirect_uri\`, \`resource\`, \`credentials_epoch\`, \`expires_at\`, \`used_at\`, \`grant_id\`, \`created_at\` from \`assistant_authorization_codes\`;`);
    this.addSql(`drop table \`assistant_authorization_codes\`;`);
    this.addSql(`alter table \`assistant_authorization_codes__temp_alter\` rename to \`assistant_authorization_codes\`;`);
    this.addSql(`create index \`assistant_authorization_codes_client_id_index\` on \`assistant_authorization_codes\` (\`client_id\`);`);
    this.addSql(`create index \`assistant_authorization_codes_member_id_index\` on \`assistant_authorization_codes\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_grants__temp_alter\` (\`id\` text not null primary key, \`member_id\` text not null, \`client_id\` text not null, \`scopes\` json not null, \`credentials_epoch\` integer not null, \`created_at\` datetime not null, \`last_used_at\` datetime null, \`revoked_at\` datetime null, \`revoked_reason\` text null, constraint \`assistant_grants_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on delete cascade, constraint \`assistant_grants_client_id_foreign\` foreign key (\`client_id\`) references \`assistant_clients\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`assistant_grants__temp_alter\` select \`id\`, \`member_id\`, \`client_id\`, \`scopes\`, \`credentials_epoch\`, \`created_at\`, \`last_used_at\`, \`revoked_at\`, \`revoked_reason\` from \`assistant_grants\`;`);
    this.addSql(`drop table \`assistant_grants\`;`);
    this.addSql(`alter table \`assistant_grants__temp_alter\` rename to \`assistant_grants\`;`);
    this.addSql(`create index \`assistant_grants_member_id_index\` on \`assistant_grants\` (\`member_id\`);`);
    this.addSql(`create index \`assistant_grants_client_id_index\` on \`assistant_grants\` (\`client_id\`);`);
    this.addSql(`create index \`assistant_grants_member_idx\` on \`assistant_grants\` (\`member_id\`, \`revoked_at\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_tokens__temp_alter\` (\`hash\` text not null primary key, \`grant_id\` text not null, \`kind\` text check (\`kind\` in ('access', 'refresh')) not null, \`scopes\` json not null, \`expires_at\` datetime not null, \`used_at\` datetime null, \`revoked_at\` datetime null, \`created_at\` datetime not null, constraint \`assistant_tokens_grant_id_foreign\` foreign key (\`grant_id\`) references \`assistant_grants\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`assistant_tokens__temp_alter\` select \`hash\`, \`grant_id\`, \`kind\`, \`scopes\`, \`expires_at\`, \`used_at\`, \`revoked_at\`, \`created_at\` from \`assistant_tokens\`;`);
    this.addSql(`drop table \`assistant_tokens\`;`);
    this.addSql(`alter table \`assistant_tokens__temp_alter\` rename to \`assistant_tokens\`;`);
    this.addSql(`create index \`assistant_tokens_grant_idx\` on \`assistant_tokens\` (\`grant_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_audit_entries__temp_alter\` (\`id\` integer not null primary key autoincrement, \`member_id\` text not null, \`grant_id\` text not null, \`client_id\` text not null, \`client_name\` text not null, \`tool\` text not null, \`outcome\` text not null, \`at\` datetime not null, constraint \`assistant_audit_entries_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on delete cascade, constraint \`assistant_audit_entries_grant_id_foreign\` foreign key (\`grant_id\`) references \`assistant_grants\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`assistant_audit_entries__temp_alter\` select \`id\`, \`member_id\`, \`grant_id\`, \`client_id\`, \`client_name\`, \`tool\`, \`outcome\`, \`at\` from \`assistant_audit_entries\`;`);
    this.addSql(`drop table \`assistant_audit_entries\`;`);
    this.addSql(`alter table \`assistant_audit_entries__temp_alter\` rename to \`assistant_audit_entries\`;`);
    this.addSql(`create index \`assistant_audit_entries_member_id_index\` on \`assistant_audit_entries\` (\`member_id\`);`);
    this.addSql(`create index \`assistant_audit_entries_grant_id_index\` on \`assistant_audit_entries\` (\`grant_id\`);`);
    this.addSql(`create index \`assistant_audit_member_idx\` on \`assistant_audit_entries\` (\`member_id\`, \`id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`member_sessions__temp_alter\` (\`id_hash\` text not null primary key, \`member_id\` text not null, \`credentials_epoch\` integer not null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`ended_at\` datetime null, constraint \`member_sessions_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`member_sessions__temp_alter\` select \`id_hash\`, \`member_id\`, \`credentials_epoch\`, \`created_at\`, \`expires_at\`, \`ended_at\` from \`member_sessions\`;`);
    this.addSql(`drop table \`member_sessions\`;`);
    this.addSql(`alter table \`member_sessions__temp_alter\` rename to \`member_sessions\`;`);
    this.addSql(`create index \`member_sessions_member_idx\` on \`member_sessions\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`needs__temp_alter\` (\`id\` text not null primary key, \`organization_id\` text not null, \`title\` text not null, \`description\` text not null default '', \`required_expertise\` json not null, \`remote_allowed\` integer not null default false, \`city\` text null, \`region\` text null, \`country\` text null, \`deadline\` datetime null, \`work_language\` text null, \`state\` text check (\`state\` in ('draft', 'public', 'private', 'withdrawn')) not null, \`discreet\` integer not null default false, \`demo\` integer not null default false, \`version\` integer not null default 0, \`published_at\` datetime null, \`withdrawn_at\` datetime null, \`created_by_id\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`needs_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`), constraint \`needs_created_by_id_foreign\` foreign key (\`created_by_id\`) references \`members\` (\`id\`) on delete set null);`);
    this.addSql(`insert into \`needs__temp_alter\` select \`id\`, \`organization_id\`, \`title\`, \`description\`, \`required_expertise\`, \`remote_allowed\`, \`city\`, \`region\`, \`country\`, \`deadline\`, null as \`work_language\`, \`state\`, \`discreet\`, \`demo\`, \`version\`, \`published_at\`, \`withdrawn_at\`, \`created_by_id\`, \`created_at\`, \`updated_at\` from \`needs\`;`);
    this.addSql(`drop table \`needs\`;`);
    this.addSql(`alter table \`needs__temp_alter\` rename to \`needs\`;`);
    this.addSql(`create index \`needs_organization_id_index\` on \`needs\` (\`organization_id\`);`);
    this.addSql(`create index \`needs_created_by_id_index\` on \`needs\` (\`created_by_id\`);`);
    this.addSql(`create index \`needs_public_feed_idx\` on \`needs\` (\`state\`, \`demo\`, \`published_at\`, \`id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`memberships__temp_alter\` (\`member_id\` text not null, \`organization_id\` text not null, \`role\` text check (\`role\` in ('admin', 'member')) not null, \`created_at\` datetime not null, primary key (\`member_id\`, \`organization_id\`), constraint \`memberships_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete cascade, constraint \`memberships_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`insert into \`memberships__temp_alter\` select \`member_id\`, \`organization_id\`, \`role\`, \`created_at\` from \`memberships\`;`);
    this.addSql(`drop table \`memberships\`;`);
    this.addSql(`alter table \`memberships__temp_alter\` rename to \`memberships\`;`);
    this.addSql(`create index \`memberships_member_id_index\` on \`memberships\` (\`member_id\`);`);
    this.addSql(`create index \`memberships_organization_id_index\` on \`memberships\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`events__temp_alter\` (\`id\` text not null primary key, \`host_id\` text not null, \`title\` text not null, \`description\` text not null default '', \`starts_at\` datetime not null, \`ends_at\` datetime not null, \`timezone\` text not null default 'UTC', \`online\` integer not null default false, \`city\` text null, \`region\` text null, \`country\` text null, \`status\` text check (\`status\` in ('public', 'cancelled')) not null, \`demo\` integer not null default false, \`version\` integer not null default 1, \`cancelled_at\` datetime null, \`host_contact_email\` text null, \`host_contact_phone\` text null, \`host_notes\` text null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`events_host_id_foreign\` foreign key (\`host_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`events__temp_alter\` select \`id\`, \`host_id\`, \`title\`, \`description\`, \`starts_at\`, \`ends_at\`, \`timezone\`, \`online\`, \`city\`, \`region\`, \`country\`, \`status\`, \`demo\`, \`version\`, \`cancelled_at\`, \`host_contact_email\`, \`host_contact_phone\`, \`host_notes\`, \`created_at\`, \`updated_at\` from \`events\`;`);
    this.addSql(`drop table \`events\`;`);
    this.addSql(`alter table \`events__temp_alter\` rename to \`events\`;`);
    this.addSql(`create index \`events_host_id_index\` on \`events\` (\`host_id\`);`);
    this.addSql(`create index \`events_upcoming_feed_idx\` on \`events\` (\`status\`, \`demo\`, \`starts_at\`, \`id\`, \`ends_at\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`esign_connections__temp_alter\` (\`id\` text not null primary key, \`organization_id\` text not null, \`provider\` text not null, \`secret_sealed\` text not null, \`created_at\` datetime not null, constraint \`esign_connections_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`esign_connections__temp_alter\` select \`id\`, \`organization_id\`, \`provider\`, \`secret_sealed\`, \`created_at\` from \`esign_connections\`;`);
    this.addSql(`drop table \`esign_connections\`;`);
    this.addSql(`alter table \`esign_connections__temp_alter\` rename to \`esign_connections\`;`);
    this.addSql(`create index \`esign_connections_organization_id_index\` on \`esign_connections\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`esign_inbound_events__temp_alter\` (\`id\` integer not null primary key autoincrement, \`connection_id\` text not null, \`provider_event_id\` text not null, \`received_at\` datetime not null, constraint \`esign_inbound_events_connection_id_foreign\` foreign key (\`connection_id\`) references \`esign_connections\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`esign_inbound_events__temp_alter\` select \`id\`, \`connection_id\`, \`provider_event_id\`, \`received_at\` from \`esign_inbound_events\`;`);
    this.addSql(`drop table \`esign_inbound_events\`;`);
    this.addSql(`alter table \`esign_inbound_events__temp_alter\` rename to \`esign_inbound_events\`;`);
    this.addSql(`create index \`esign_inbound_events_connection_id_index\` on \`esign_inbound_events\` (\`connection_id\`);`);
    this.addSql(`create unique index \`esign_inbound_events_once\` on \`esign_inbound_events\` (\`connection_id\`, \`provider_event_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`contract_templates__temp_alter\` (\`id\` text not null primary key, \`organization_id\` text not null, \`name\` text not null, \`body\` text not null, constraint \`contract_templates_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`contract_templates__temp_alter\` select \`id\`, \`organization_id\`, \`name\`, \`body\` from \`contract_templates\`;`);
    this.addSql(`drop table \`contract_templates\`;`);
    this.addSql(`alter table \`contract_templates__temp_alter\` rename to \`contract_templates\`;`);
    this.addSql(`create index \`contract_templates_organization_id_index\` on \`contract_templates\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`api_keys__temp_alter\` (\`id\` text not null primary key, \`organization_id\` text not null, \`name\` text not null, \`prefix\` text not null, \`hash\` text not null, \`scopes\` json not null, \`expires_at\` datetime not null, \`revoked_at\` datetime null, \`last_used_at\` datetime null, \`created_at\` datetime not null, constraint \`api_keys_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`api_keys__temp_alter\` select \`id\`, \`organization_id\`, \`name\`, \`prefix\`, \`hash\`, \`scopes\`, \`expires_at\`, \`revoked_at\`, \`last_used_at\`, \`created_at\` from \`api_keys\`;`);
    this.addSql(`drop table \`api_keys\`;`);
    this.addSql(`alter table \`api_keys__temp_alter\` rename to \`api_keys\`;`);
    this.addSql(`create index \`api_keys_organization_id_index\` on \`api_keys\` (\`organization_id\`);`);
    this.addSql(`create unique index \`api_keys_hash_unique\` on \`api_keys\` (\`hash\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`packs__temp_alter\` (\`id\` text not null primary key, \`need_id\` text null, \`lead_organization_id\` text not null, \`name\` text not null, \`status\` text check (\`status\` in ('forming', 'active', 'completed')) not null, \`created_at\` datetime not null, constraint \`packs_need_id_foreign\` foreign key (\`need_id\`) references \`needs\` (\`id\`) on delete set null, constraint \`packs_lead_organization_id_foreign\` foreign key (\`lead_organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`packs__temp_alter\` select \`id\`, \`need_id\`, \`lead_organization_id\`, \`name\`, \`status\`, \`created_at\` from \`packs\`;`);
    this.addSql(`drop table \`packs\`;`);
    this.addSql(`alter table \`packs__temp_alter\` rename to \`packs\`;`);
    this.addSql(`create index \`packs_need_id_index\` on \`packs\` (\`need_id\`);`);
    this.addSql(`create index \`packs_lead_organization_id_index\` on \`packs\` (\`lead_organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`milestones__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`title\` text not null, \`amount_cents\` integer not null, \`due_at\` datetime not null, \`status\` text check (\`status\` in ('planned', 'delivered', 'accepted')) not null, constraint \`milestones_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`));`);
    this.addSql(`insert into \`milestones__temp_alter\` select \`id\`, \`pack_id\`, \`title\`, \`amount_cents\`, \`due_at\`, \`status\` from \`milestones\`;`);
    this.addSql(`drop table \`milestones\`;`);
    this.addSql(`alter table \`milestones__temp_alter\` rename to \`milestones\`;`);
    this.addSql(`create index \`milestones_pack_id_index\` on \`milestones\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`collections__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`amount_cents\` integer not null, \`currency\` text not null, \`payer_reference\` text not null, \`received_at\` datetime not null, constraint \`collections_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`));`);
    this.addSql(`insert into \`collections__temp_alter\` select \`id\`, \`pack_id\`, \`amount_cents\`, \`currency\`, \`payer_reference\`, \`received_at\` from \`collections\`;`);
    this.addSql(`drop table \`collections\`;`);
    this.addSql(`alter table \`collections__temp_alter\` rename to \`collections\`;`);
    this.addSql(`create index \`collections_pack_id_index\` on \`collections\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pack_documents__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`filename\` text not null, \`storage_key\` text not null, \`summary\` text not null, constraint \`pack_documents_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`));`);
    this.addSql(`insert into \`pack_documents__temp_alter\` select \`id\`, \`pack_id\`, \`filename\`, \`storage_key\`, \`summary\` from \`pack_documents\`;`);
    this.addSql(`drop table \`pack_documents\`;`);
    this.addSql(`alter table \`pack_documents__temp_alter\` rename to \`pack_documents\`;`);
    this.addSql(`create index \`pack_documents_pack_id_index\` on \`pack_documents\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pack_invitations__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`member_id\` text not null, \`invited_by_id\` text not null, \`status\` text check (\`status\` in ('pending', 'accepted', 'refused')) not null, \`created_at\` datetime not null, constraint \`pack_invitations_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`), constraint \`pack_invitations_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`), constraint \`pack_invitations_invited_by_id_foreign\` foreign key (\`invited_by_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`pack_invitations__temp_alter\` select \`id\`, \`pack_id\`, \`member_id\`, \`invited_by_id\`, \`status\`, \`created_at\` from \`pack_invitations\`;`);
    this.addSql(`drop table \`pack_invitations\`;`);
    this.addSql(`alter table \`pack_invitations__temp_alter\` rename to \`pack_invitations\`;`);
    this.addSql(`create index \`pack_invitations_pack_id_index\` on \`pack_invitations\` (\`pack_id\`);`);
    this.addSql(`create index \`pack_invitations_member_id_index\` on \`pack_invitations\` (\`member_id\`);`);
    this.addSql(`create index \`pack_invitations_invited_by_id_index\` on \`pack_invitations\` (\`invited_by_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pack_members__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`organization_id\` text not null, \`positioning\` text not null, \`price_cents\` integer not null, \`currency\` text not null, constraint \`pack_members_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`), constraint \`pack_members_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`pack_members__temp_alter\` select \`id\`, \`pack_id\`, \`organization_id\`, \`positioning\`, \`price_cents\`, \`currency\` from \`pack_members\`;`);
    this.addSql(`drop table \`pack_members\`;`);
    this.addSql(`alter table \`pack_members__temp_alter\` rename to \`pack_members\`;`);
    this.addSql(`create index \`pack_members_pack_id_index\` on \`pack_members\` (\`pack_id\`);`);
    this.addSql(`create index \`pack_members_organization_id_index\` on \`pack_members\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pacts__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`terms\` text not null, \`status\` text check (\`status\` in ('draft', 'sent', 'signed', 'void')) not null, constraint \`pacts_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`));`);
    this.addSql(`insert into \`pacts__temp_alter\` select \`id\`, \`pack_id\`, \`terms\`, \`status\` from \`pacts\`;`);
    this.addSql(`drop table \`pacts\`;`);
    this.addSql(`alter table \`pacts__temp_alter\` rename to \`pacts\`;`);
    this.addSql(`create index \`pacts_pack_id_index\` on \`pacts\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pact_signatures__temp_alter\` (\`id\` text not null primary key, \`pact_id\` text not null, \`member_id\` text not null, \`provider_envelope_id\` text not null, \`state\` text check (\`state\` in ('pending', 'signed', 'declined')) not null, \`signed_at\` datetime null, constraint \`pact_signatures_pact_id_foreign\` foreign key (\`pact_id\`) references \`pacts\` (\`id\`), constraint \`pact_signatures_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`));`);
    this.addSql(`insert into \`pact_signatures__temp_alter\` select \`id\`, \`pact_id\`, \`member_id\`, \`provider_envelope_id\`, \`state\`, \`signed_at\` from \`pact_signatures\`;`);
    this.addSql(`drop table \`pact_signatures\`;`);
    this.addSql(`alter table \`pact_signatures__temp_alter\` rename to \`pact_signatures\`;`);
    this.addSql(`create index \`pact_signatures_pact_id_index\` on \`pact_signatures\` (\`pact_id\`);`);
    this.addSql(`create index \`pact_signatures_member_id_index\` on \`pact_signatures\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`payouts__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`recipient_id\` text not null, \`amount_cents\` integer not null, \`currency\` text not null, \`status\` text check (\`status\` in ('scheduled', 'paid', 'confirmed')) not null, \`paid_at\` datetime null, constraint \`payouts_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`), constraint \`payouts_recipient_id_foreign\` foreign key (\`recipient_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`payouts__temp_alter\` select \`id\`, \`pack_id\`, \`recipient_id\`, \`amount_cents\`, \`currency\`, \`status\`, \`paid_at\` from \`payouts\`;`);
    this.addSql(`drop table \`payouts\`;`);
    this.addSql(`alter table \`payouts__temp_alter\` rename to \`payouts\`;`);
    this.addSql(`create index \`payouts_pack_id_index\` on \`payouts\` (\`pack_id\`);`);
    this.addSql(`create index \`payouts_recipient_id_index\` on \`payouts\` (\`recipient_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`payout_confirmations__temp_alter\` (\`id\` text not null primary key, \`payout_id\` text not null, \`confirmed_by_id\` text not null, \`note\` text not null, \`confirmed_at\` datetime not null, constraint \`payout_confirmations_payout_id_foreign\` foreign key (\`payout_id\`) references \`payouts\` (\`id\`), constraint \`payout_confirmations_confirmed_by_id_foreign\` foreign key (\`confirmed_by_id\`) references \`members\` (\`id\`));`);
    this.addSql(`insert into \`payout_confirmations__temp_alter\` select \`id\`, \`payout_id\`, \`confirmed_by_id\`, \`note\`, \`confirmed_at\` from \`payout_confirmations\`;`);
    this.addSql(`drop table \`payout_confirmations\`;`);
    this.addSql(`alter table \`payout_confirmations__temp_alter\` rename to \`payout_confirmations\`;`);
    this.addSql(`create index \`payout_confirmations_payout_id_index\` on \`payout_confirmations\` (\`payout_id\`);`);
    this.addSql(`create index \`payout_confirmations_confirmed_by_id_index\` on \`payout_confirmations\` (\`confirmed_by_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`private_clauses__temp_alter\` (\`id\` text not null primary key, \`organization_id\` text not null, \`title\` text not null, \`body\` text not null, constraint \`private_clauses_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`private_clauses__temp_alter\` select \`id\`, \`organization_id\`, \`title\`, \`body\` from \`private_clauses\`;`);
    this.addSql(`drop table \`private_clauses\`;`);
    this.addSql(`alter table \`private_clauses__temp_alter\` rename to \`private_clauses\`;`);
    this.addSql(`create index \`private_clauses_organization_id_index\` on \`private_clauses\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`private_threads__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`subject\` text not null, constraint \`private_threads_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`));`);
    this.addSql(`insert into \`private_threads__temp_alter\` select \`id\`, \`pack_id\`, \`subject\` from \`private_threads\`;`);
    this.addSql(`drop table \`private_threads\`;`);
    this.addSql(`alter table \`private_threads__temp_alter\` rename to \`private_threads\`;`);
    this.addSql(`create index \`private_threads_pack_id_index\` on \`private_threads\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`quotes__temp_alter\` (\`id\` text not null primary key, \`need_id\` text not null, \`pack_id\` text null, \`organization_id\` text not null, \`amount_cents\` integer not null, \`currency\` text not null, \`body\` text not null, \`status\` text check (\`status\` in ('draft', 'submitted', 'accepted', 'refused')) not null, constraint \`quotes_need_id_foreign\` foreign key (\`need_id\`) references \`needs\` (\`id\`), constraint \`quotes_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on delete set null, constraint \`quotes_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`quotes__temp_alter\` select \`id\`, \`need_id\`, \`pack_id\`, \`organization_id\`, \`amount_cents\`, \`currency\`, \`body\`, \`status\` from \`quotes\`;`);
    this.addSql(`drop table \`quotes\`;`);
    this.addSql(`alter table \`quotes__temp_alter\` rename to \`quotes\`;`);
    this.addSql(`create index \`quotes_need_id_index\` on \`quotes\` (\`need_id\`);`);
    this.addSql(`create index \`quotes_pack_id_index\` on \`quotes\` (\`pack_id\`);`);
    this.addSql(`create index \`quotes_organization_id_index\` on \`quotes\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`revenue_splits__temp_alter\` (\`id\` text not null primary key, \`pack_id\` text not null, \`frozen\` integer not null default false, \`shares\` json not null, \`total_cents\` integer not null, \`currency\` text not null, constraint \`revenue_splits_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`));`);
    this.addSql(`insert into \`revenue_splits__temp_alter\` select \`id\`, \`pack_id\`, \`frozen\`, \`shares\`, \`total_cents\`, \`currency\` from \`revenue_splits\`;`);
    this.addSql(`drop table \`revenue_splits\`;`);
    this.addSql(`alter table \`revenue_splits__temp_alter\` rename to \`revenue_splits\`;`);
    this.addSql(`create index \`revenue_splits_pack_id_index\` on \`revenue_splits\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`team_chat_authorizations__temp_alter\` (\`state_hash\` text not null primary key, \`organization_id\` text not null, \`language\` text not null, \`kinds\` json not null, \`scope\` text not null, \`session_hash\` text null, \`expires_at\` datetime not null, \`created_at\` datetime not null, constraint \`team_chat_authorizations_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`team_chat_authorizations__temp_alter\` select \`state_hash\`, \`organization_id\`, \`language\`, \`kinds\`, \`scope\`, \`session_hash\`, \`expires_at\`, \`created_at\` from \`team_chat_authorizations\`;`);
    this.addSql(`drop table \`team_chat_authorizations\`;`);
    this.addSql(`alter table \`team_chat_authorizations__temp_alter\` rename to \`team_chat_authorizations\`;`);
    this.addSql(`create index \`team_chat_authorizations_organization_id_index\` on \`team_chat_authorizations\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`thread_messages__temp_alter\` (\`id\` text not null primary key, \`thread_id\` text not null, \`author_id\` text not null, \`body\` text not null, \`sent_at\` datetime not null, constraint \`thread_messages_thread_id_foreign\` foreign key (\`thread_id\`) references \`private_threads\` (\`id\`), constraint \`thread_messages_author_id_foreign\` foreign key (\`author_id\`) references \`members\` (\`id\`));`);
    this.addSql(`insert into \`thread_messages__temp_alter\` select \`id\`, \`thread_id\`, \`author_id\`, \`body\`, \`sent_at\` from \`thread_messages\`;`);
    this.addSql(`drop table \`thread_messages\`;`);
    this.addSql(`alter table \`thread_messages__temp_alter\` rename to \`thread_messages\`;`);
    this.addSql(`create index \`thread_messages_thread_id_index\` on \`thread_messages\` (\`thread_id\`);`);
    this.addSql(`create index \`thread_messages_author_id_index\` on \`thread_messages\` (\`author_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`webhook_destinations__temp_alter\` (\`id\` text not null primary key, \`organization_id\` text not null, \`name\` text not null default '', \`description\` text not null default '', \`format\` text check (\`format\` in ('standard-json', 'team-chat', 'collaboration-suite')) not null, \`url_sealed\` text not null, \`url_masked\` text not null, \`language\` text check (\`language\` in ('en', 'fr')) not null, \`kinds\` json not null, \`scope\` text check (\`scope\` in ('platform', 'own')) not null, \`connected_via\` text check (\`connected_via\` in ('manual', 'oauth')) not null default 'manual', \`secret_sealed\` text null, \`previous_secret_sealed\` text null, \`previous_secret_expires_at\` datetime null, \`status\` text check (\`status\` in ('active', 'disabled')) not null default 'active', \`disabled_reason\` text null, \`since_seq\` integer not null, \`lease_owner\` text null, \`lease_expires_at\` datetime null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`webhook_destinations_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`));`);
    this.addSql(`insert into \`webhook_destinations__temp_alter\` select \`id\`, \`organization_id\`, \`name\`, \`description\`, \`format\`, \`url_sealed\`, \`url_masked\`, \`language\`, \`kinds\`, \`scope\`, \`connected_via\`, \`secret_sealed\`, \`previous_secret_sealed\`, \`previous_secret_expires_at\`, \`status\`, \`disabled_reason\`, \`since_seq\`, \`lease_owner\`, \`lease_expires_at\`, \`created_at\`, \`updated_at\` from \`webhook_destinations\`;`);
    this.addSql(`drop table \`webhook_destinations\`;`);
    this.addSql(`alter table \`webhook_destinations__temp_alter\` rename to \`webhook_destinations\`;`);
    this.addSql(`create index \`webhook_destinations_organization_id_index\` on \`webhook_destinations\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`webhook_deliveries__temp_alter\` (\`id\` text not null primary key, \`destination_id\` text not null, \`organization_id\` text not null, \`seq\` integer not null, \`event_id\` text not null, \`type\` text not null, \`envelope\` json not null, \`test\` integer not null default false, \`status\` text check (\`status\` in ('pending', 'succeeded', 'failed')) not null default 'pending', \`attempts\` integer not null default 0, \`next_attempt_at\` datetime not null, \`last_status_code\` integer null, \`last_error\` text null, \`last_attempt_at\` datetime null, \`delivered_at\` datetime null, \`created_at\` datetime not null, constraint \`webhook_deliveries_destination_id_foreign\` foreign key (\`destination_id\`) references \`webhook_destinations\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`webhook_deliveries__temp_alter\` select \`id\`, \`destination_id\`, \`organization_id\`, \`seq\`, \`event_id\`, \`type\`, \`envelope\`, \`test\`, \`status\`, \`attempts\`, \`next_attempt_at\`, \`last_status_code\`, \`last_error\`, \`last_attempt_at\`, \`delivered_at\`, \`created_at\` from \`webhook_deliveries\`;`);
    this.addSql(`drop table \`webhook_deliveries\`;`);
    this.addSql(`alter table \`webhook_deliveries__temp_alter\` rename to \`webhook_deliveries\`;`);
    this.addSql(`create index \`webhook_deliveries_lane_idx\` on \`webhook_deliveries\` (\`destination_id\`, \`status\`, \`seq\`);`);
    this.addSql(`create index \`webhook_deliveries_org_idx\` on \`webhook_deliveries\` (\`organization_id\`, \`created_at\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`delivery_attempts__temp_alter\` (\`id\` integer not null primary key autoincrement, \`delivery_id\` text not null, \`number\` integer not null, \`at\` datetime not null, \`duration_ms\` integer not null, \`status_code\` integer null, \`error\` text null, \`response_excerpt\` text null, \`request_headers\` text null, \`response_headers\` text null, constraint \`delivery_attempts_delivery_id_foreign\` foreign key (\`delivery_id\`) references \`webhook_deliveries\` (\`id\`) on delete cascade);`);
    this.addSql(`insert into \`delivery_attempts__temp_alter\` select \`id\`, \`delivery_id\`, \`number\`, \`at\`, \`duration_ms\`, \`status_code\`, \`error\`, \`response_excerpt\`, \`request_headers\`, \`response_headers\` from \`delivery_attempts\`;`);
    this.addSql(`drop table \`delivery_attempts\`;`);
    this.addSql(`alter table \`delivery_attempts__temp_alter\` rename to \`delivery_attempts\`;`);
    this.addSql(`create index \`delivery_attempts_delivery_idx\` on \`delivery_attempts\` (\`delivery_id\`, \`number\`);`);
    this.addSql(`pragma foreign_keys = on;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`api_keys__temp_alter\` (\`id\` TEXT not null primary key, \`organization_id\` TEXT not null, \`name\` TEXT not null, \`prefix\` TEXT not null, \`hash\` TEXT not null, \`scopes\` json not null, \`expires_at\` datetime not null, \`revoked_at\` datetime null, \`last_used_at\` datetime null, \`created_at\` datetime not null, constraint \`api_keys_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`api_keys__temp_alter\` select \`id\`, \`organization_id\`, \`name\`, \`prefix\`, \`hash\`, \`scopes\`, \`expires_at\`, \`revoked_at\`, \`last_used_at\`, \`created_at\` from \`api_keys\`;`);
    this.addSql(`drop table \`api_keys\`;`);
    this.addSql(`alter table \`api_keys__temp_alter\` rename to \`api_keys\`;`);
    this.addSql(`create unique index \`api_keys_hash_unique\` on \`api_keys\` (\`hash\`);`);
    this.addSql(`create index \`api_keys_organization_id_index\` on \`api_keys\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_audit_entries__temp_alter\` (\`id\` integer not null primary key autoincrement, \`member_id\` TEXT not null, \`grant_id\` TEXT not null, \`client_id\` TEXT not null, \`client_name\` TEXT not null, \`tool\` TEXT not null, \`outcome\` TEXT not null, \`at\` datetime not null, constraint \`assistant_audit_entries_grant_id_foreign\` foreign key (\`grant_id\`) references \`assistant_grants\` (\`id\`) on update cascade on delete cascade, constraint \`assistant_audit_entries_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`insert into \`assistant_audit_entries__temp_alter\` select \`id\`, \`member_id\`, \`grant_id\`, \`client_id\`, \`client_name\`, \`tool\`, \`outcome\`, \`at\` from \`assistant_audit_entries\`;`);
    this.addSql(`drop table \`assistant_audit_entries\`;`);
    this.addSql(`alter table \`assistant_audit_entries__temp_alter\` rename to \`assistant_audit_entries\`;`);
    this.addSql(`create index \`assistant_audit_member_idx\` on \`assistant_audit_entries\` (\`member_id\`, \`id\`);`);
    this.addSql(`create index \`assistant_audit_entries_grant_id_index\` on \`assistant_audit_entries\` (\`grant_id\`);`);
    this.addSql(`create index \`assistant_audit_entries_member_id_index\` on \`assistant_audit_entries\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_authorization_codes__temp_alter\` (\`code_hash\` TEXT not null primary key, \`client_id\` TEXT not null, \`member_id\` TEXT not null, \`scopes\` json not null, \`code_challenge\` TEXT not null, \`redirect_uri\` TEXT not null, \`resource\` TEXT not null, \`credentials_epoch\` INTEGER not null, \`expires_at\` datetime not null, \`used_at\` datetime null, \`grant_id\` TEXT null, \`created_at\` datetime not null, constraint \`assistant_authorization_codes_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete cascade, constraint \`assistant_authorization_codes_client_id_foreign\` foreign key (\`client_id\`) references \`assistant_clients\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`insert into \`assistant_authorization_codes__temp_alter\` select \`code_hash\`, \`client_id\`, \`member_id\`, \`scopes\`, \`code_challenge\`, \`redirect_uri\`, \`resource\`, \`credentials_epoch\`, \`expires_at\`, \`used_at\`, \`grant_id\`, \`created_at\` from \`assistant_authorization_codes\`;`);
    this.addSql(`drop table \`assistant_authorization_codes\`;`);
    this.addSql(`alter table \`assistant_authorization_codes__temp_alter\` rename to \`assistant_authorization_codes\`;`);
    this.addSql(`create index \`assistant_authorization_codes_member_id_index\` on \`assistant_authorization_codes\` (\`member_id\`);`);
    this.addSql(`create index \`assistant_authorization_codes_client_id_index\` on \`assistant_authorization_codes\` (\`client_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_grants__temp_alter\` (\`id\` TEXT not null primary key, \`member_id\` TEXT not null, \`client_id\` TEXT not null, \`scopes\` json not null, \`credentials_epoch\` INTEGER not null, \`created_at\` datetime not null, \`last_used_at\` datetime null, \`revoked_at\` datetime null, \`revoked_reason\` TEXT null, constraint \`assistant_grants_client_id_foreign\` foreign key (\`client_id\`) references \`assistant_clients\` (\`id\`) on update cascade on delete cascade, constraint \`assistant_grants_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`insert into \`assistant_grants__temp_alter\` select \`id\`, \`member_id\`, \`client_id\`, \`scopes\`, \`credentials_epoch\`, \`created_at\`, \`last_used_at\`, \`revoked_at\`, \`revoked_reason\` from \`assistant_grants\`;`);
    this.addSql(`drop table \`assistant_grants\`;`);
    this.addSql(`alter table \`assistant_grants__temp_alter\` rename to \`assistant_grants\`;`);
    this.addSql(`create index \`assistant_grants_member_idx\` on \`assistant_grants\` (\`member_id\`, \`revoked_at\`);`);
    this.addSql(`create index \`assistant_grants_client_id_index\` on \`assistant_grants\` (\`client_id\`);`);
    this.addSql(`create index \`assistant_grants_member_id_index\` on \`assistant_grants\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`assistant_tokens__temp_alter\` (\`hash\` TEXT not null primary key, \`grant_id\` TEXT not null, \`kind\` TEXT check (\`kind\` in ('access', 'refresh')) not null, \`scopes\` json not null, \`expires_at\` datetime not null, \`used_at\` datetime null, \`revoked_at\` datetime null, \`created_at\` datetime not null, constraint \`assistant_tokens_grant_id_foreign\` foreign key (\`grant_id\`) references \`assistant_grants\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`insert into \`assistant_tokens__temp_alter\` select \`hash\`, \`grant_id\`, \`kind\`, \`scopes\`, \`expires_at\`, \`used_at\`, \`revoked_at\`, \`created_at\` from \`assistant_tokens\`;`);
    this.addSql(`drop table \`assistant_tokens\`;`);
    this.addSql(`alter table \`assistant_tokens__temp_alter\` rename to \`assistant_tokens\`;`);
    this.addSql(`create index \`assistant_tokens_grant_idx\` on \`assistant_tokens\` (\`grant_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`collections__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`amount_cents\` INTEGER not null, \`currency\` TEXT not null, \`payer_reference\` TEXT not null, \`received_at\` datetime not null, constraint \`collections_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`collections__temp_alter\` select \`id\`, \`pack_id\`, \`amount_cents\`, \`currency\`, \`payer_reference\`, \`received_at\` from \`collections\`;`);
    this.addSql(`drop table \`collections\`;`);
    this.addSql(`alter table \`collections__temp_alter\` rename to \`collections\`;`);
    this.addSql(`create index \`collections_pack_id_index\` on \`collections\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`contract_templates__temp_alter\` (\`id\` TEXT not null primary key, \`organization_id\` TEXT not null, \`name\` TEXT not null, \`body\` TEXT not null, constraint \`contract_templates_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`contract_templates__temp_alter\` select \`id\`, \`organization_id\`, \`name\`, \`body\` from \`contract_templates\`;`);
    this.addSql(`drop table \`contract_templates\`;`);
    this.addSql(`alter table \`contract_templates__temp_alter\` rename to \`contract_templates\`;`);
    this.addSql(`create index \`contract_templates_organization_id_index\` on \`contract_templates\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`delivery_attempts__temp_alter\` (\`id\` integer not null primary key autoincrement, \`delivery_id\` TEXT not null, \`number\` INTEGER not null, \`at\` datetime not null, \`duration_ms\` INTEGER not null, \`status_code\` INTEGER null, \`error\` TEXT null, \`response_excerpt\` TEXT null, \`request_headers\` TEXT null, \`response_headers\` TEXT null, constraint \`delivery_attempts_delivery_id_foreign\` foreign key (\`delivery_id\`) references \`webhook_deliveries\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`delivery_attempts__temp_alter\` select \`id\`, \`delivery_id\`, \`number\`, \`at\`, \`duration_ms\`, \`status_code\`, \`error\`, \`response_excerpt\`, \`request_headers\`, \`response_headers\` from \`delivery_attempts\`;`);
    this.addSql(`drop table \`delivery_attempts\`;`);
    this.addSql(`alter table \`delivery_attempts__temp_alter\` rename to \`delivery_attempts\`;`);
    this.addSql(`create index \`delivery_attempts_delivery_idx\` on \`delivery_attempts\` (\`delivery_id\`, \`number\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`esign_connections__temp_alter\` (\`id\` TEXT not null primary key, \`organization_id\` TEXT not null, \`provider\` TEXT not null, \`secret_sealed\` TEXT not null, \`created_at\` datetime not null, constraint \`esign_connections_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`esign_connections__temp_alter\` select \`id\`, \`organization_id\`, \`provider\`, \`secret_sealed\`, \`created_at\` from \`esign_connections\`;`);
    this.addSql(`drop table \`esign_connections\`;`);
    this.addSql(`alter table \`esign_connections__temp_alter\` rename to \`esign_connections\`;`);
    this.addSql(`create index \`esign_connections_organization_id_index\` on \`esign_connections\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`esign_inbound_events__temp_alter\` (\`id\` integer not null primary key autoincrement, \`connection_id\` TEXT not null, \`provider_event_id\` TEXT not null, \`received_at\` datetime not null, constraint \`esign_inbound_events_connection_id_foreign\` foreign key (\`connection_id\`) references \`esign_connections\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`esign_inbound_events__temp_alter\` select \`id\`, \`connection_id\`, \`provider_event_id\`, \`received_at\` from \`esign_inbound_events\`;`);
    this.addSql(`drop table \`esign_inbound_events\`;`);
    this.addSql(`alter table \`esign_inbound_events__temp_alter\` rename to \`esign_inbound_events\`;`);
    this.addSql(`create unique index \`esign_inbound_events_once\` on \`esign_inbound_events\` (\`connection_id\`, \`provider_event_id\`);`);
    this.addSql(`create index \`esign_inbound_events_connection_id_index\` on \`esign_inbound_events\` (\`connection_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`events__temp_alter\` (\`id\` TEXT not null primary key, \`host_id\` TEXT not null, \`title\` TEXT not null, \`description\` TEXT not null default '', \`starts_at\` datetime not null, \`ends_at\` datetime not null, \`timezone\` TEXT not null default 'UTC', \`online\` INTEGER not null default false, \`city\` TEXT null, \`region\` TEXT null, \`country\` TEXT null, \`status\` TEXT check (\`status\` in ('public', 'cancelled')) not null, \`demo\` INTEGER not null default false, \`version\` INTEGER not null default 1, \`cancelled_at\` datetime null, \`host_contact_email\` TEXT null, \`host_contact_phone\` TEXT null, \`host_notes\` TEXT null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`events_host_id_foreign\` foreign key (\`host_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`events__temp_alter\` select \`id\`, \`host_id\`, \`title\`, \`description\`, \`starts_at\`, \`ends_at\`, \`timezone\`, \`online\`, \`city\`, \`region\`, \`country\`, \`status\`, \`demo\`, \`version\`, \`cancelled_at\`, \`host_contact_email\`, \`host_contact_phone\`, \`host_notes\`, \`created_at\`, \`updated_at\` from \`events\`;`);
    this.addSql(`drop table \`events\`;`);
    this.addSql(`alter table \`events__temp_alter\` rename to \`events\`;`);
    this.addSql(`create index \`events_upcoming_feed_idx\` on \`events\` (\`status\`, \`demo\`, \`starts_at\`, \`id\`, \`ends_at\`);`);
    this.addSql(`create index \`events_host_id_index\` on \`events\` (\`host_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`member_sessions__temp_alter\` (\`id_hash\` TEXT not null primary key, \`member_id\` TEXT not null, \`credentials_epoch\` INTEGER not null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`ended_at\` datetime null, constraint \`member_sessions_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`insert into \`member_sessions__temp_alter\` select \`id_hash\`, \`member_id\`, \`credentials_epoch\`, \`created_at\`, \`expires_at\`, \`ended_at\` from \`member_sessions\`;`);
    this.addSql(`drop table \`member_sessions\`;`);
    this.addSql(`alter table \`member_sessions__temp_alter\` rename to \`member_sessions\`;`);
    this.addSql(`create index \`member_sessions_member_idx\` on \`member_sessions\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`memberships__temp_alter\` (\`member_id\` TEXT not null primary key, \`organization_id\` TEXT not null primary key, \`role\` TEXT check (\`role\` in ('admin', 'member')) not null, \`created_at\` datetime not null, primary key (\`member_id\`, \`organization_id\`), constraint \`memberships_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action, constraint \`memberships_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`memberships__temp_alter\` select \`member_id\`, \`organization_id\`, \`role\`, \`created_at\` from \`memberships\`;`);
    this.addSql(`drop table \`memberships\`;`);
    this.addSql(`alter table \`memberships__temp_alter\` rename to \`memberships\`;`);
    this.addSql(`create index \`memberships_organization_id_index\` on \`memberships\` (\`organization_id\`);`);
    this.addSql(`create index \`memberships_member_id_index\` on \`memberships\` (\`member_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`milestones__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`title\` TEXT not null, \`amount_cents\` INTEGER not null, \`due_at\` datetime not null, \`status\` TEXT check (\`status\` in ('planned', 'delivered', 'accepted')) not null, constraint \`milestones_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`milestones__temp_alter\` select \`id\`, \`pack_id\`, \`title\`, \`amount_cents\`, \`due_at\`, \`status\` from \`milestones\`;`);
    this.addSql(`drop table \`milestones\`;`);
    this.addSql(`alter table \`milestones__temp_alter\` rename to \`milestones\`;`);
    this.addSql(`create index \`milestones_pack_id_index\` on \`milestones\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`needs__temp_alter\` (\`id\` TEXT not null primary key, \`organization_id\` TEXT not null, \`title\` TEXT not null, \`description\` TEXT not null default '', \`required_expertise\` json not null, \`remote_allowed\` INTEGER not null default false, \`city\` TEXT null, \`region\` TEXT null, \`country\` TEXT null, \`deadline\` datetime null, \`state\` TEXT check (\`state\` in ('draft', 'public', 'private', 'withdrawn')) not null, \`discreet\` INTEGER not null default false, \`demo\` INTEGER not null default false, \`version\` INTEGER not null default 0, \`published_at\` datetime null, \`withdrawn_at\` datetime null, \`created_by_id\` TEXT null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`needs_created_by_id_foreign\` foreign key (\`created_by_id\`) references \`members\` (\`id\`) on update cascade on delete set null, constraint \`needs_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`needs__temp_alter\` select \`id\`, \`organization_id\`, \`title\`, \`description\`, \`required_expertise\`, \`remote_allowed\`, \`city\`, \`region\`, \`country\`, \`deadline\`, \`state\`, \`discreet\`, \`demo\`, \`version\`, \`published_at\`, \`withdrawn_at\`, \`created_by_id\`, \`created_at\`, \`updated_at\` from \`needs\`;`);
    this.addSql(`drop table \`needs\`;`);
    this.addSql(`alter table \`needs__temp_alter\` rename to \`needs\`;`);
    this.addSql(`create index \`needs_public_feed_idx\` on \`needs\` (\`state\`, \`demo\`, \`published_at\`, \`id\`);`);
    this.addSql(`create index \`needs_created_by_id_index\` on \`needs\` (\`created_by_id\`);`);
    this.addSql(`create index \`needs_organization_id_index\` on \`needs\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pack_documents__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`filename\` TEXT not null, \`storage_key\` TEXT not null, \`summary\` TEXT not null, constraint \`pack_documents_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`pack_documents__temp_alter\` select \`id\`, \`pack_id\`, \`filename\`, \`storage_key\`, \`summary\` from \`pack_documents\`;`);
    this.addSql(`drop table \`pack_documents\`;`);
    this.addSql(`alter table \`pack_documents__temp_alter\` rename to \`pack_documents\`;`);
    this.addSql(`create index \`pack_documents_pack_id_index\` on \`pack_documents\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pack_invitations__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`member_id\` TEXT not null, \`invited_by_id\` TEXT not null, \`status\` TEXT check (\`status\` in ('pending', 'accepted', 'refused')) not null, \`created_at\` datetime not null, constraint \`pack_invitations_invited_by_id_foreign\` foreign key (\`invited_by_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action, constraint \`pack_invitations_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete no action, constraint \`pack_invitations_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`pack_invitations__temp_alter\` select \`id\`, \`pack_id\`, \`member_id\`, \`invited_by_id\`, \`status\`, \`created_at\` from \`pack_invitations\`;`);
    this.addSql(`drop table \`pack_invitations\`;`);
    this.addSql(`alter table \`pack_invitations__temp_alter\` rename to \`pack_invitations\`;`);
    this.addSql(`create index \`pack_invitations_invited_by_id_index\` on \`pack_invitations\` (\`invited_by_id\`);`);
    this.addSql(`create index \`pack_invitations_member_id_index\` on \`pack_invitations\` (\`member_id\`);`);
    this.addSql(`create index \`pack_invitations_pack_id_index\` on \`pack_invitations\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pack_members__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`organization_id\` TEXT not null, \`positioning\` TEXT not null, \`price_cents\` INTEGER not null, \`currency\` TEXT not null, constraint \`pack_members_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action, constraint \`pack_members_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`pack_members__temp_alter\` select \`id\`, \`pack_id\`, \`organization_id\`, \`positioning\`, \`price_cents\`, \`currency\` from \`pack_members\`;`);
    this.addSql(`drop table \`pack_members\`;`);
    this.addSql(`alter table \`pack_members__temp_alter\` rename to \`pack_members\`;`);
    this.addSql(`create index \`pack_members_organization_id_index\` on \`pack_members\` (\`organization_id\`);`);
    this.addSql(`create index \`pack_members_pack_id_index\` on \`pack_members\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`packs__temp_alter\` (\`id\` TEXT not null primary key, \`need_id\` TEXT null, \`lead_organization_id\` TEXT not null, \`name\` TEXT not null, \`status\` TEXT check (\`status\` in ('forming', 'active', 'completed')) not null, \`created_at\` datetime not null, constraint \`packs_lead_organization_id_foreign\` foreign key (\`lead_organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action, constraint \`packs_need_id_foreign\` foreign key (\`need_id\`) references \`needs\` (\`id\`) on update cascade on delete set null);`);
    this.addSql(`insert into \`packs__temp_alter\` select \`id\`, \`need_id\`, \`lead_organization_id\`, \`name\`, \`status\`, \`created_at\` from \`packs\`;`);
    this.addSql(`drop table \`packs\`;`);
    this.addSql(`alter table \`packs__temp_alter\` rename to \`packs\`;`);
    this.addSql(`create index \`packs_lead_organization_id_index\` on \`packs\` (\`lead_organization_id\`);`);
    this.addSql(`create index \`packs_need_id_index\` on \`packs\` (\`need_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pact_signatures__temp_alter\` (\`id\` TEXT not null primary key, \`pact_id\` TEXT not null, \`member_id\` TEXT not null, \`provider_envelope_id\` TEXT not null, \`state\` TEXT check (\`state\` in ('pending', 'signed', 'declined')) not null, \`signed_at\` datetime null, constraint \`pact_signatures_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete no action, constraint \`pact_signatures_pact_id_foreign\` foreign key (\`pact_id\`) references \`pacts\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`pact_signatures__temp_alter\` select \`id\`, \`pact_id\`, \`member_id\`, \`provider_envelope_id\`, \`state\`, \`signed_at\` from \`pact_signatures\`;`);
    this.addSql(`drop table \`pact_signatures\`;`);
    this.addSql(`alter table \`pact_signatures__temp_alter\` rename to \`pact_signatures\`;`);
    this.addSql(`create index \`pact_signatures_member_id_index\` on \`pact_signatures\` (\`member_id\`);`);
    this.addSql(`create index \`pact_signatures_pact_id_index\` on \`pact_signatures\` (\`pact_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`pacts__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`terms\` TEXT not null, \`status\` TEXT check (\`status\` in ('draft', 'sent', 'signed', 'void')) not null, constraint \`pacts_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`pacts__temp_alter\` select \`id\`, \`pack_id\`, \`terms\`, \`status\` from \`pacts\`;`);
    this.addSql(`drop table \`pacts\`;`);
    this.addSql(`alter table \`pacts__temp_alter\` rename to \`pacts\`;`);
    this.addSql(`create index \`pacts_pack_id_index\` on \`pacts\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`payout_confirmations__temp_alter\` (\`id\` TEXT not null primary key, \`payout_id\` TEXT not null, \`confirmed_by_id\` TEXT not null, \`note\` TEXT not null, \`confirmed_at\` datetime not null, constraint \`payout_confirmations_confirmed_by_id_foreign\` foreign key (\`confirmed_by_id\`) references \`members\` (\`id\`) on update cascade on delete no action, constraint \`payout_confirmations_payout_id_foreign\` foreign key (\`payout_id\`) references \`payouts\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`payout_confirmations__temp_alter\` select \`id\`, \`payout_id\`, \`confirmed_by_id\`, \`note\`, \`confirmed_at\` from \`payout_confirmations\`;`);
    this.addSql(`drop table \`payout_confirmations\`;`);
    this.addSql(`alter table \`payout_confirmations__temp_alter\` rename to \`payout_confirmations\`;`);
    this.addSql(`create index \`payout_confirmations_confirmed_by_id_index\` on \`payout_confirmations\` (\`confirmed_by_id\`);`);
    this.addSql(`create index \`payout_confirmations_payout_id_index\` on \`payout_confirmations\` (\`payout_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`payouts__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`recipient_id\` TEXT not null, \`amount_cents\` INTEGER not null, \`currency\` TEXT not null, \`status\` TEXT check (\`status\` in ('scheduled', 'paid', 'confirmed')) not null, \`paid_at\` datetime null, constraint \`payouts_recipient_id_foreign\` foreign key (\`recipient_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action, constraint \`payouts_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`payouts__temp_alter\` select \`id\`, \`pack_id\`, \`recipient_id\`, \`amount_cents\`, \`currency\`, \`status\`, \`paid_at\` from \`payouts\`;`);
    this.addSql(`drop table \`payouts\`;`);
    this.addSql(`alter table \`payouts__temp_alter\` rename to \`payouts\`;`);
    this.addSql(`create index \`payouts_recipient_id_index\` on \`payouts\` (\`recipient_id\`);`);
    this.addSql(`create index \`payouts_pack_id_index\` on \`payouts\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`private_clauses__temp_alter\` (\`id\` TEXT not null primary key, \`organization_id\` TEXT not null, \`title\` TEXT not null, \`body\` TEXT not null, constraint \`private_clauses_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`private_clauses__temp_alter\` select \`id\`, \`organization_id\`, \`title\`, \`body\` from \`private_clauses\`;`);
    this.addSql(`drop table \`private_clauses\`;`);
    this.addSql(`alter table \`private_clauses__temp_alter\` rename to \`private_clauses\`;`);
    this.addSql(`create index \`private_clauses_organization_id_index\` on \`private_clauses\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`private_threads__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`subject\` TEXT not null, constraint \`private_threads_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`private_threads__temp_alter\` select \`id\`, \`pack_id\`, \`subject\` from \`private_threads\`;`);
    this.addSql(`drop table \`private_threads\`;`);
    this.addSql(`alter table \`private_threads__temp_alter\` rename to \`private_threads\`;`);
    this.addSql(`create index \`private_threads_pack_id_index\` on \`private_threads\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`quotes__temp_alter\` (\`id\` TEXT not null primary key, \`need_id\` TEXT not null, \`pack_id\` TEXT null, \`organization_id\` TEXT not null, \`amount_cents\` INTEGER not null, \`currency\` TEXT not null, \`body\` TEXT not null, \`status\` TEXT check (\`status\` in ('draft', 'submitted', 'accepted', 'refused')) not null, constraint \`quotes_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action, constraint \`quotes_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete set null, constraint \`quotes_need_id_foreign\` foreign key (\`need_id\`) references \`needs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`quotes__temp_alter\` select \`id\`, \`need_id\`, \`pack_id\`, \`organization_id\`, \`amount_cents\`, \`currency\`, \`body\`, \`status\` from \`quotes\`;`);
    this.addSql(`drop table \`quotes\`;`);
    this.addSql(`alter table \`quotes__temp_alter\` rename to \`quotes\`;`);
    this.addSql(`create index \`quotes_organization_id_index\` on \`quotes\` (\`organization_id\`);`);
    this.addSql(`create index \`quotes_pack_id_index\` on \`quotes\` (\`pack_id\`);`);
    this.addSql(`create index \`quotes_need_id_index\` on \`quotes\` (\`need_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`revenue_splits__temp_alter\` (\`id\` TEXT not null primary key, \`pack_id\` TEXT not null, \`frozen\` INTEGER not null default false, \`shares\` json not null, \`total_cents\` INTEGER not null, \`currency\` TEXT not null, constraint \`revenue_splits_pack_id_foreign\` foreign key (\`pack_id\`) references \`packs\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`revenue_splits__temp_alter\` select \`id\`, \`pack_id\`, \`frozen\`, \`shares\`, \`total_cents\`, \`currency\` from \`revenue_splits\`;`);
    this.addSql(`drop table \`revenue_splits\`;`);
    this.addSql(`alter table \`revenue_splits__temp_alter\` rename to \`revenue_splits\`;`);
    this.addSql(`create index \`revenue_splits_pack_id_index\` on \`revenue_splits\` (\`pack_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`team_chat_authorizations__temp_alter\` (\`state_hash\` TEXT not null primary key, \`organization_id\` TEXT not null, \`language\` TEXT not null, \`kinds\` json not null, \`scope\` TEXT not null, \`expires_at\` datetime not null, \`created_at\` datetime not null, \`session_hash\` TEXT null, constraint \`team_chat_authorizations_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`team_chat_authorizations__temp_alter\` select \`state_hash\`, \`organization_id\`, \`language\`, \`kinds\`, \`scope\`, \`expires_at\`, \`created_at\`, \`session_hash\` from \`team_chat_authorizations\`;`);
    this.addSql(`drop table \`team_chat_authorizations\`;`);
    this.addSql(`alter table \`team_chat_authorizations__temp_alter\` rename to \`team_chat_authorizations\`;`);
    this.addSql(`create index \`team_chat_authorizations_organization_id_index\` on \`team_chat_authorizations\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`thread_messages__temp_alter\` (\`id\` TEXT not null primary key, \`thread_id\` TEXT not null, \`author_id\` TEXT not null, \`body\` TEXT not null, \`sent_at\` datetime not null, constraint \`thread_messages_author_id_foreign\` foreign key (\`author_id\`) references \`members\` (\`id\`) on update cascade on delete no action, constraint \`thread_messages_thread_id_foreign\` foreign key (\`thread_id\`) references \`private_threads\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`thread_messages__temp_alter\` select \`id\`, \`thread_id\`, \`author_id\`, \`body\`, \`sent_at\` from \`thread_messages\`;`);
    this.addSql(`drop table \`thread_messages\`;`);
    this.addSql(`alter table \`thread_messages__temp_alter\` rename to \`thread_messages\`;`);
    this.addSql(`create index \`thread_messages_author_id_index\` on \`thread_messages\` (\`author_id\`);`);
    this.addSql(`create index \`thread_messages_thread_id_index\` on \`thread_messages\` (\`thread_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`webhook_deliveries__temp_alter\` (\`id\` TEXT not null primary key, \`destination_id\` TEXT not null, \`organization_id\` TEXT not null, \`seq\` INTEGER not null, \`event_id\` TEXT not null, \`type\` TEXT not null, \`envelope\` json not null, \`test\` INTEGER not null default false, \`status\` TEXT check (\`status\` in ('pending', 'succeeded', 'failed')) not null default 'pending', \`attempts\` INTEGER not null default 0, \`next_attempt_at\` datetime not null, \`last_status_code\` INTEGER null, \`last_error\` TEXT null, \`last_attempt_at\` datetime null, \`delivered_at\` datetime null, \`created_at\` datetime not null, constraint \`webhook_deliveries_destination_id_foreign\` foreign key (\`destination_id\`) references \`webhook_destinations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`webhook_deliveries__temp_alter\` select \`id\`, \`destination_id\`, \`organization_id\`, \`seq\`, \`event_id\`, \`type\`, \`envelope\`, \`test\`, \`status\`, \`attempts\`, \`next_attempt_at\`, \`last_status_code\`, \`last_error\`, \`last_attempt_at\`, \`delivered_at\`, \`created_at\` from \`webhook_deliveries\`;`);
    this.addSql(`drop table \`webhook_deliveries\`;`);
    this.addSql(`alter table \`webhook_deliveries__temp_alter\` rename to \`webhook_deliveries\`;`);
    this.addSql(`create index \`webhook_deliveries_org_idx\` on \`webhook_deliveries\` (\`organization_id\`, \`created_at\`);`);
    this.addSql(`create index \`webhook_deliveries_lane_idx\` on \`webhook_deliveries\` (\`destination_id\`, \`status\`, \`seq\`);`);
    this.addSql(`pragma foreign_keys = on;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`webhook_destinations__temp_alter\` (\`id\` TEXT not null primary key, \`organization_id\` TEXT not null, \`format\` TEXT check (\`format\` in ('standard-json', 'team-chat', 'collaboration-suite')) not null, \`url_sealed\` TEXT not null, \`url_masked\` TEXT not null, \`language\` TEXT check (\`language\` in ('en', 'fr')) not null, \`kinds\` json not null, \`scope\` TEXT check (\`scope\` in ('platform', 'own')) not null, \`connected_via\` TEXT check (\`connected_via\` in ('manual', 'oauth')) not null default 'manual', \`secret_sealed\` TEXT null, \`previous_secret_sealed\` TEXT null, \`previous_secret_expires_at\` datetime null, \`status\` TEXT check (\`status\` in ('active', 'disabled')) not null default 'active', \`disabled_reason\` TEXT null, \`since_seq\` INTEGER not null, \`lease_owner\` TEXT null, \`lease_expires_at\` datetime null, \`created_at\` datetime not null, \`updated_at\` datetime not null, \`name\` TEXT not null default '', \`description\` TEXT not null default '', constraint \`webhook_destinations_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete no action);`);
    this.addSql(`insert into \`webhook_destinations__temp_alter\` select \`id\`, \`organization_id\`, \`format\`, \`url_sealed\`, \`url_masked\`, \`language\`, \`kinds\`, \`scope\`, \`connected_via\`, \`secret_sealed\`, \`previous_secret_sealed\`, \`previous_secret_expires_at\`, \`status\`, \`disabled_reason\`, \`since_seq\`, \`lease_owner\`, \`lease_expires_at\`, \`created_at\`, \`updated_at\`, \`name\`, \`description\` from \`webhook_destinations\`;`);
    this.addSql(`drop table \`webhook_destinations\`;`);
    this.addSql(`alter table \`webhook_destinations__temp_alter\` rename to \`webhook_destinations\`;`);
    this.addSql(`create index \`webhook_destinations_organization_id_index\` on \`webhook_destinations\` (\`organization_id\`);`);
    this.addSql(`pragma foreign_keys = on;`);
  }

}
