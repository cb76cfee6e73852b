import { Migration } from '@mikro-orm/migrations';

export class Migration20261122063723 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`assistant_clients\` (\`id\` text not null, \`name\` text not null, \`redirect_uris\` json not null, \`created_at\` datetime not null, primary key (\`id\`));`);

    this.addSql(`create table \`assistant_authorization_codes\` (\`code_hash\` text not null, \`client_id\` text not null, \`member_id\` text not null, \`scopes\` json not null, \`code_challenge\` text not null, \`redirect_uri\` text not null, \`resource\` text not null, \`credentials_epoch\` integer not null, \`expires_at\` datetime not null, \`used_at\` datetime null, \`grant_id\` text null, \`created_at\` datetime not null, constraint \`assistant_authorization_codes_client_id_foreign\` foreign key(\`client_id\`) references \`assistant_clients\`(\`id\`) on delete cascade on update cascade, constraint \`assistant_authorization_codes_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on delete cascade on update cascade, primary key (\`code_hash\`));`);
    this.addSql(`create index \`assistant_authorization_codes_client_id_index\` on \`assistant_authorization_codes\` (\`client_id\`);`);
    this.addSql(`create index \`assistant_authorization_codes_member_id_index\` on \`assistant_authorization_codes\` (\`member_id\`);`);

    this.addSql(`create table \`assistant_grants\` (\`id\` text not null, \`member_id\` text not null, \`client_id\` text not null, \`scopes\` json not null, \`credentials_epoch\` integer not null, \`created_at\` datetime not null, \`last_used_at\` datetime null, \`revoked_at\` datetime null, \`revoked_reason\` text null, constraint \`assistant_grants_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on delete cascade on update cascade, constraint \`assistant_grants_client_id_foreign\` foreign key(\`client_id\`) references \`assistant_clients\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`assistant_grants_member_id_index\` on \`assistant_grants\` (\`member_id\`);`);
    this.addSql(`create index \`assistant_grants_client_id_index\` on \`assistant_grants\` (\`client_id\`);`);
    this.addSql(`create index \`assistant_grants_member_idx\` on \`assistant_grants\` (\`member_id\`, \`revoked_at\`);`);

    this.addSql(`create table \`assistant_tokens\` (\`hash\` text not null, \`grant_id\` text not null, \`kind\` text check (\`kind\` in ('access', 'refresh')) not null, \`scopes\` json not null, \`expires_at\` datetime not null, \`used_at\` datetime null, \`revoked_at\` datetime null, \`created_at\` datetime not null, constraint \`assistant_tokens_grant_id_foreign\` foreign key(\`grant_id\`) references \`assistant_grants\`(\`id\`) on delete cascade on update cascade, primary key (\`hash\`));`);
    this.addSql(`create index \`assistant_tokens_grant_idx\` on \`assistant_tokens\` (\`grant_id\`);`);

    this.addSql(`create table \`assistant_audit_entries\` (\`id\` integer not null primary key autoincrement, \`member_id\` text not null, \`grant_id\` text not null, \`client_id\` text not null, \`client_name\` text not null, \`tool\` text not null, \`outcome\` text not null, \`at\` datetime not null, constraint \`assistant_audit_entries_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on delete cascade on update cascade, constraint \`assistant_audit_entries_grant_id_foreign\` foreign key(\`grant_id\`) references \`assistant_grants\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`assistant_audit_entries_member_id_index\` on \`assistant_audit_entries\` (\`member_id\`);`);
    this.addSql(`create index \`assistant_audit_entries_grant_id_index\` on \`assistant_audit_entries\` (\`grant_id\`);`);
    this.addSql(`create index \`assistant_audit_member_idx\` on \`assistant_audit_entries\` (\`member_id\`, \`id\`);`);

    this.addSql(`create table \`member_sessions\` (\`id_hash\` text not null, \`member_id\` text not null, \`credentials_epoch\` integer not null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`ended_at\` datetime null, constraint \`member_sessions_member_id_foreign\` foreign key(\`member_id\`) references \`members\`(\`id\`) on delete cascade on update cascade, primary key (\`id_hash\`));`);
    this.addSql(`create index \`member_sessions_member_idx\` on \`member_sessions\` (\`member_id\`);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists \`member_sessions\`;`);
    this.addSql(`drop table if exists \`assistant_audit_entries\`;`);
    this.addSql(`drop table if exists \`assistant_tokens\`;`);
    this.addSql(`drop table if exists \`assistant_grants\`;`);
    this.addSql(`drop table if exists \`assistant_authorization_codes\`;`);
    this.addSql(`drop table if exists \`assistant_clients\`;`);
  }

}
