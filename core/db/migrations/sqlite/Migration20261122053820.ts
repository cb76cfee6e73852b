import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053820 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`esign_connections\` (\`id\` text not null, \`organization_id\` text not null, \`provider\` text not null, \`secret_sealed\` text not null, \`created_at\` datetime not null, constraint \`esign_connections_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`esign_connections_organization_id_index\` on \`esign_connections\` (\`organization_id\`);`);

    this.addSql(`create table \`esign_inbound_events\` (\`id\` integer not null primary key autoincrement, \`connection_id\` text not null, \`provider_event_id\` text not null, \`received_at\` datetime not null, constraint \`esign_inbound_events_connection_id_foreign\` foreign key(\`connection_id\`) references \`esign_connections\`(\`id\`) on update cascade);`);
    this.addSql(`create index \`esign_inbound_events_connection_id_index\` on \`esign_inbound_events\` (\`connection_id\`);`);
    this.addSql(`create unique index \`esign_inbound_events_once\` on \`esign_inbound_events\` (\`connection_id\`, \`provider_event_id\`);`);

    this.addSql(`create table \`team_chat_authorizations\` (\`state_hash\` text not null, \`organization_id\` text not null, \`language\` text not null, \`kinds\` json not null, \`scope\` text not null, \`expires_at\` datetime not null, \`created_at\` datetime not null, constraint \`team_chat_authorizations_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`state_hash\`));`);
    this.addSql(`create index \`team_chat_authorizations_organization_id_index\` on \`team_chat_authorizations\` (\`organization_id\`);`);

    this.addSql(`create table \`webhook_destinations\` (\`id\` text not null, \`organization_id\` text not null, \`format\` text check (\`format\` in ('standard-json', 'team-chat', 'collaboration-suite')) not null, \`url_sealed\` text not null, \`url_masked\` text not null, \`language\` text check (\`language\` in ('en', 'fr')) not null, \`kinds\` json not null, \`scope\` text check (\`scope\` in ('platform', 'own')) not null, \`connected_via\` text check (\`connected_via\` in ('manual', 'oauth')) not null default 'manual', \`secret_sealed\` text null, \`previous_secret_sealed\` text null, \`previous_secret_expires_at\` datetime null, \`status\` text check (\`status\` in ('active', 'disabled')) not null default 'active', \`disabled_reason\` text null, \`since_seq\` integer not null, \`lease_owner\` text null, \`lease_expires_at\` datetime null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`webhook_destinations_organization_id_foreign\` foreign key(\`organization_id\`) references \`organizations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`webhook_destinations_organization_id_index\` on \`webhook_destinations\` (\`organization_id\`);`);

    this.addSql(`create table \`webhook_deliveries\` (\`id\` text not null, \`destination_id\` text not null, \`organization_id\` text not null, \`seq\` integer not null, \`event_id\` text not null, \`type\` text not null, \`envelope\` json not null, \`test\` integer not null default false, \`status\` text check (\`status\` in ('pending', 'succeeded', 'failed')) not null default 'pending', \`attempts\` integer not null default 0, \`next_attempt_at\` datetime not null, \`last_status_code\` integer null, \`last_error\` text null, \`last_attempt_at\` datetime null, \`delivered_at\` datetime null, \`created_at\` datetime not null, constraint \`webhook_deliveries_destination_id_foreign\` foreign key(\`destination_id\`) references \`webhook_destinations\`(\`id\`) on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`webhook_deliveries_destination_id_index\` on \`webhook_deliveries\` (\`destination_id\`);`);
    this.addSql(`create index \`webhook_deliveries_lane_idx\` on \`webhook_deliveries\` (\`destination_id\`, \`status\`, \`seq\`);`);
    this.addSql(`create index \`webhook_deliveries_org_idx\` on \`webhook_deliveries\` (\`organization_id\`, \`created_at\`);`);

    this.addSql(`create table \`delivery_attempts\` (\`id\` integer not null primary key autoincrement, \`delivery_id\` text not null, \`number\` integer not null, \`at\` datetime not null, \`duration_ms\` integer not null, \`status_code\` integer null, \`error\` text null, \`response_excerpt\` text null, constraint \`delivery_attempts_delivery_id_foreign\` foreign key(\`delivery_id\`) references \`webhook_deliveries\`(\`id\`) on update cascade);`);
    this.addSql(`create index \`delivery_attempts_delivery_id_index\` on \`delivery_attempts\` (\`delivery_id\`);`);
    this.addSql(`create index \`delivery_attempts_delivery_idx\` on \`delivery_attempts\` (\`delivery_id\`, \`number\`);`);

    this.addSql(`alter table \`outbox_events\` add column \`fanned_out_at\` datetime null;`);
    this.addSql(`create index \`outbox_events_fan_out_idx\` on \`outbox_events\` (\`fanned_out_at\`, \`seq\`);`);
  }

}
