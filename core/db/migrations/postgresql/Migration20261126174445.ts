import { Migration } from '@mikro-orm/migrations';

export class Migration20261126174445 extends Migration {

  override name = 'Migration20261126174445';

  override up(): void | Promise<void> {
    this.addSql(`alter table "assistant_authorization_codes" drop constraint "assistant_authorization_codes_client_id_foreign";`);
    this.addSql(`alter table "assistant_authorization_codes" drop constraint "assistant_authorization_codes_member_id_foreign";`);

    this.addSql(`alter table "assistant_grants" drop constraint "assistant_grants_client_id_foreign";`);
    this.addSql(`alter table "assistant_grants" drop constraint "assistant_grants_member_id_foreign";`);

    this.addSql(`alter table "assistant_tokens" drop constraint "assistant_tokens_grant_id_foreign";`);

    this.addSql(`alter table "assistant_audit_entries" drop constraint "assistant_audit_entries_grant_id_foreign";`);
    this.addSql(`alter table "assistant_audit_entries" drop constraint "assistant_audit_entries_member_id_foreign";`);

    this.addSql(`alter table "member_sessions" drop constraint "member_sessions_member_id_foreign";`);

    this.addSql(`alter table "needs" drop constraint "needs_created_by_id_foreign";`);
    this.addSql(`alter table "needs" drop constraint "needs_organization_id_foreign";`);

    this.addSql(`alter table "memberships" drop constraint "memberships_member_id_foreign";`);
    this.addSql(`alter table "memberships" drop constraint "memberships_organization_id_foreign";`);

    this.addSql(`alter table "events" drop constraint "events_host_id_foreign";`);

    this.addSql(`alter table "esign_connections" drop constraint "esign_connections_organization_id_foreign";`);

    this.addSql(`alter table "esign_inbound_events" drop constraint "esign_inbound_events_connection_id_foreign";`);

    this.addSql(`alter table "contract_templates" drop constraint "contract_templates_organization_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_organization_id_foreign";`);

    this.addSql(`alter table "packs" drop constraint "packs_lead_organization_id_foreign";`);
    this.addSql(`alter table "packs" drop constraint "packs_need_id_foreign";`);

    this.addSql(`alter table "milestones" drop constraint "milestones_pack_id_foreign";`);

    this.addSql(`alter table "collections" drop constraint "collections_pack_id_foreign";`);

    this.addSql(`alter table "pack_documents" drop constraint "pack_documents_pack_id_foreign";`);

    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_invited_by_id_foreign";`);
    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_member_id_foreign";`);
    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_pack_id_foreign";`);

    this.addSql(`alter table "pack_members" drop constraint "pack_members_organization_id_foreign";`);
    this.addSql(`alter table "pack_members" drop constraint "pack_members_pack_id_foreign";`);

    this.addSql(`alter table "pacts" drop constraint "pacts_pack_id_foreign";`);

    this.addSql(`alter table "pact_signatures" drop constraint "pact_signatures_member_id_foreign";`);
    this.addSql(`alter table "pact_signatures" drop constraint "pact_signatures_pact_id_foreign";`);

    this.addSql(`alter table "payouts" drop constraint "payouts_pack_id_foreign";`);
    this.addSql(`alter table "payouts" drop constraint "payouts_recipient_id_foreign";`);

    this.addSql(`alter table "payout_confirmations" drop constraint "payout_confirmations_confirmed_by_id_foreign";`);
    this.addSql(`alter table "payout_confirmations" drop constraint "payout_confirmations_payout_id_foreign";`);

    this.addSql(`alter table "private_clauses" drop constraint "private_clauses_organization_id_foreign";`);

    this.addSql(`alter table "private_threads" drop constraint "private_threads_pack_id_foreign";`);

    this.addSql(`alter table "quotes" drop constraint "quotes_need_id_foreign";`);
    this.addSql(`alter table "quotes" drop constraint "quotes_organization_id_foreign";`);
    this.addSql(`alter table "quotes" drop constraint "quotes_pack_id_foreign";`);

    this.addSql(`alter table "revenue_splits" drop constraint "revenue_splits_pack_id_foreign";`);

    this.addSql(`alter table "team_chat_authorizations" drop constraint "team_chat_authorizations_organization_id_foreign";`);

    this.addSql(`alter table "thread_messages" drop constraint "thread_messages_author_id_foreign";`);
    this.addSql(`alter table "thread_messages" drop constraint "thread_messages_thread_id_foreign";`);

    this.addSql(`alter table "webhook_destinations" drop constraint "webhook_destinations_organization_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_destination_id_foreign";`);

    this.addSql(`alter table "delivery_attempts" drop constraint "delivery_attempts_delivery_id_foreign";`);

    this.addSql(`alter table "assistant_authorization_codes" add constraint "assistant_authorization_codes_client_id_foreign" foreign key ("client_id") references "assistant_clients" ("id") on delete cascade;`);
    this.addSql(`alter table "assistant_authorization_codes" add constraint "assistant_authorization_codes_member_id_foreign" foreign key ("member_id") references "members" ("id") on delete cascade;`);

    this.addSql(`alter table "assistant_grants" add constraint "assistant_grants_client_id_foreign" foreign key ("client_id") references "assistant_clients" ("id") on delete cascade;`);
    this.addSql(`alter table "assistant_grants" add constraint "assistant_grants_member_id_foreign" foreign key ("member_id") references "members" ("id") on delete cascade;`);

    this.addSql(`alter table "assistant_tokens" add constraint "assistant_tokens_grant_id_foreign" foreign key ("grant_id") references "assistant_grants" ("id") on delete cascade;`);

    this.addSql(`alter table "assistant_audit_entries" add constraint "assistant_audit_entries_grant_id_foreign" foreign key ("grant_id") references "assistant_grants" ("id") on delete cascade;`);
    this.addSql(`alter table "assistant_audit_entries" add constraint "assistant_audit_entries_member_id_foreign" foreign key ("member_id") references "members" ("id") on delete cascade;`);

    this.addSql(`alter table "member_sessions" add constraint "member_sessions_member_id_foreign" foreign key ("member_id") references "members" ("id") on delete cascade;`);

    this.addSql(`alter table "needs" add "work_language" varchar(40) null;`);
    this.addSql(`alter table "needs" add constraint "needs_created_by_id_foreign" foreign key ("created_by_id") references "members" ("id") on delete set null;`);
    this.addSql(`alter table "needs" add constraint "needs_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "memberships" add constraint "memberships_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "memberships" add constraint "memberships_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "events" add constraint "events_host_id_foreign" foreign key ("host_id") references "organizations" ("id");`);

    this.addSql(`alter table "esign_connections" add constraint "esign_connections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "esign_inbound_events" add constraint "esign_inbound_events_connection_id_foreign" foreign key ("connection_id") references "esign_connections" ("id") on delete cascade;`);

    this.addSql(`alter table "contract_templates" add constraint "contract_templates_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "packs" add constraint "packs_lead_organization_id_foreign" foreign key ("lead_organization_id") references "organizations" ("id");`);
    this.addSql(`alter table "packs" add constraint "packs_need_id_foreign" foreign key ("need_id") references "needs" ("id") on delete set null;`);

    this.addSql(`alter table "milestones" add constraint "milestones_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "collections" add constraint "collections_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "pack_documents" add constraint "pack_documents_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_invited_by_id_foreign" foreign key ("invited_by_id") references "organizations" ("id");`);
    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_member_id_foreign" foreign key ("member_id") references "members" ("id");`);
    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "pack_members" add constraint "pack_members_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);
    this.addSql(`alter table "pack_members" add constraint "pack_members_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "pacts" add constraint "pacts_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "pact_signatures" add constraint "pact_signatures_member_id_foreign" foreign key ("member_id") references "members" ("id");`);
    this.addSql(`alter table "pact_signatures" add constraint "pact_signatures_pact_id_foreign" foreign key ("pact_id") references "pacts" ("id");`);

    this.addSql(`alter table "payouts" add constraint "payouts_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);
    this.addSql(`alter table "payouts" add constraint "payouts_recipient_id_foreign" foreign key ("recipient_id") references "organizations" ("id");`);

    this.addSql(`alter table "payout_confirmations" add constraint "payout_confirmations_confirmed_by_id_foreign" foreign key ("confirmed_by_id") references "members" ("id");`);
    this.addSql(`alter table "payout_confirmations" add constraint "payout_confirmations_payout_id_foreign" foreign key ("payout_id") references "payouts" ("id");`);

    this.addSql(`alter table "private_clauses" add constraint "private_clauses_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "private_threads" add constraint "private_threads_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "quotes" add constraint "quotes_need_id_foreign" foreign key ("need_id") references "needs" ("id");`);
    this.addSql(`alter table "quotes" add constraint "quotes_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);
    this.addSql(`alter table "quotes" add constraint "quotes_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on delete set null;`);

    this.addSql(`alter table "revenue_splits" add constraint "revenue_splits_pack_id_foreign" foreign key ("pack_id") references "packs" ("id");`);

    this.addSql(`alter table "team_chat_authorizations" add constraint "team_chat_authorizations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "thread_messages" add constraint "thread_messages_author_id_foreign" foreign key ("author_id") references "members" ("id");`);
    this.addSql(`alter table "thread_messages" add constraint "thread_messages_thread_id_foreign" foreign key ("thread_id") references "private_threads" ("id");`);

    this.addSql(`alter table "webhook_destinations" add constraint "webhook_destinations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id");`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_destination_id_foreign" foreign key ("destination_id") references "webhook_destinations" ("id") on delete cascade;`);

    this.addSql(`alter table "delivery_attempts" add constraint "delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_keys" drop constraint "api_keys_organization_id_foreign";`);

    this.addSql(`alter table "assistant_audit_entries" drop constraint "assistant_audit_entries_member_id_foreign";`);
    this.addSql(`alter table "assistant_audit_entries" drop constraint "assistant_audit_entries_grant_id_foreign";`);

    this.addSql(`alter table "assistant_authorization_codes" drop constraint "assistant_authorization_codes_client_id_foreign";`);
    this.addSql(`alter table "assistant_authorization_codes" drop constraint "assistant_authorization_codes_member_id_foreign";`);

    this.addSql(`alter table "assistant_grants" drop constraint "assistant_grants_member_id_foreign";`);
    this.addSql(`alter table "assistant_grants" drop constraint "assistant_grants_client_id_foreign";`);

    this.addSql(`alter table "assistant_tokens" drop constraint "assistant_tokens_grant_id_foreign";`);

    this.addSql(`alter table "collections" drop constraint "collections_pack_id_foreign";`);

    this.addSql(`alter table "contract_templates" drop constraint "contract_templates_organization_id_foreign";`);

    this.addSql(`alter table "delivery_attempts" drop constraint "delivery_attempts_delivery_id_foreign";`);

    this.addSql(`alter table "esign_connections" drop constraint "esign_connections_organization_id_foreign";`);

    this.addSql(`alter table "esign_inbound_events" drop constraint "esign_inbound_events_connection_id_foreign";`);

    this.addSql(`alter table "events" drop constraint "events_host_id_foreign";`);

    this.addSql(`alter table "member_sessions" drop constraint "member_sessions_member_id_foreign";`);

    this.addSql(`alter table "memberships" drop constraint "memberships_member_id_foreign";`);
    this.addSql(`alter table "memberships" drop constraint "memberships_organization_id_foreign";`);

    this.addSql(`alter table "milestones" drop constraint "milestones_pack_id_foreign";`);

    this.addSql(`alter table "needs" drop constraint "needs_organization_id_foreign";`);
    this.addSql(`alter table "needs" drop constraint "needs_created_by_id_foreign";`);

    this.addSql(`alter table "pack_documents" drop constraint "pack_documents_pack_id_foreign";`);

    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_pack_id_foreign";`);
    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_member_id_foreign";`);
    this.addSql(`alter table "pack_invitations" drop constraint "pack_invitations_invited_by_id_foreign";`);

    this.addSql(`alter table "pack_members" drop constraint "pack_members_pack_id_foreign";`);
    this.addSql(`alter table "pack_members" drop constraint "pack_members_organization_id_foreign";`);

    this.addSql(`alter table "packs" drop constraint "packs_need_id_foreign";`);
    this.addSql(`alter table "packs" drop constraint "packs_lead_organization_id_foreign";`);

    this.addSql(`alter table "pact_signatures" drop constraint "pact_signatures_pact_id_foreign";`);
    this.addSql(`alter table "pact_signatures" drop constraint "pact_signatures_member_id_foreign";`);

    this.addSql(`alter table "pacts" drop constraint "pacts_pack_id_foreign";`);

    this.addSql(`alter table "payout_confirmations" drop constraint "payout_confirmations_payout_id_foreign";`);
    this.addSql(`alter table "payout_confirmations" drop constraint "payout_confirmations_confirmed_by_id_foreign";`);

    this.addSql(`alter table "payouts" drop constraint "payouts_pack_id_foreign";`);
    this.addSql(`alter table "payouts" drop constraint "payouts_recipient_id_foreign";`);

    this.addSql(`alter table "private_clauses" drop constraint "private_clauses_organization_id_foreign";`);

    this.addSql(`alter table "private_threads" drop constraint "private_threads_pack_id_foreign";`);

    this.addSql(`alter table "quotes" drop constraint "quotes_need_id_foreign";`);
    this.addSql(`alter table "quotes" drop constraint "quotes_pack_id_foreign";`);
    this.addSql(`alter table "quotes" drop constraint "quotes_organization_id_foreign";`);

    this.addSql(`alter table "revenue_splits" drop constraint "revenue_splits_pack_id_foreign";`);

    this.addSql(`alter table "team_chat_authorizations" drop constraint "team_chat_authorizations_organization_id_foreign";`);

    this.addSql(`alter table "thread_messages" drop constraint "thread_messages_thread_id_foreign";`);
    this.addSql(`alter table "thread_messages" drop constraint "thread_messages_author_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_destination_id_foreign";`);

    this.addSql(`alter table "webhook_destinations" drop constraint "webhook_destinations_organization_id_foreign";`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "assistant_audit_entries" add constraint "assistant_audit_entries_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assistant_audit_entries" add constraint "assistant_audit_entries_grant_id_foreign" foreign key ("grant_id") references "assistant_grants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assistant_authorization_codes" add constraint "assistant_authorization_codes_client_id_foreign" foreign key ("client_id") references "assistant_clients" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assistant_authorization_codes" add constraint "assistant_authorization_codes_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assistant_grants" add constraint "assistant_grants_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "assistant_grants" add constraint "assistant_grants_client_id_foreign" foreign key ("client_id") references "assistant_clients" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "assistant_tokens" add constraint "assistant_tokens_grant_id_foreign" foreign key ("grant_id") references "assistant_grants" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "collections" add constraint "collections_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "contract_templates" add constraint "contract_templates_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "delivery_attempts" add constraint "delivery_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "esign_connections" add constraint "esign_connections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "esign_inbound_events" add constraint "esign_inbound_events_connection_id_foreign" foreign key ("connection_id") references "esign_connections" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "events" add constraint "events_host_id_foreign" foreign key ("host_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "member_sessions" add constraint "member_sessions_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "memberships" add constraint "memberships_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "memberships" add constraint "memberships_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "milestones" add constraint "milestones_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "needs" drop column "work_language";`);
    this.addSql(`alter table "needs" add constraint "needs_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "needs" add constraint "needs_created_by_id_foreign" foreign key ("created_by_id") references "members" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "pack_documents" add constraint "pack_documents_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "pack_invitations" add constraint "pack_invitations_invited_by_id_foreign" foreign key ("invited_by_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "pack_members" add constraint "pack_members_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "pack_members" add constraint "pack_members_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "packs" add constraint "packs_need_id_foreign" foreign key ("need_id") references "needs" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "packs" add constraint "packs_lead_organization_id_foreign" foreign key ("lead_organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "pact_signatures" add constraint "pact_signatures_pact_id_foreign" foreign key ("pact_id") references "pacts" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "pact_signatures" add constraint "pact_signatures_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "pacts" add constraint "pacts_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "payout_confirmations" add constraint "payout_confirmations_payout_id_foreign" foreign key ("payout_id") references "payouts" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "payout_confirmations" add constraint "payout_confirmations_confirmed_by_id_foreign" foreign key ("confirmed_by_id") references "members" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "payouts" add constraint "payouts_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "payouts" add constraint "payouts_recipient_id_foreign" foreign key ("recipient_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "private_clauses" add constraint "private_clauses_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "private_threads" add constraint "private_threads_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "quotes" add constraint "quotes_need_id_foreign" foreign key ("need_id") references "needs" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "quotes" add constraint "quotes_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "quotes" add constraint "quotes_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "revenue_splits" add constraint "revenue_splits_pack_id_foreign" foreign key ("pack_id") references "packs" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "team_chat_authorizations" add constraint "team_chat_authorizations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "thread_messages" add constraint "thread_messages_thread_id_foreign" foreign key ("thread_id") references "private_threads" ("id") on update cascade on delete no action;`);
    this.addSql(`alter table "thread_messages" add constraint "thread_messages_author_id_foreign" foreign key ("author_id") references "members" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_destination_id_foreign" foreign key ("destination_id") references "webhook_destinations" ("id") on update cascade on delete no action;`);

    this.addSql(`alter table "webhook_destinations" add constraint "webhook_destinations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete no action;`);
  }

}
