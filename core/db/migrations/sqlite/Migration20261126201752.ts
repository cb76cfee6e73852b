import { Migration } from '@mikro-orm/migrations';

export class Migration20261126201752 extends Migration {

  override name = 'Migration20261126201752';

  override up(): void | Promise<void> {
    this.addSql(`create table \`organization_invitations\` (\`id\` text not null primary key, \`token_hash\` text not null, \`organization_id\` text not null, \`email\` text not null, \`role\` text check (\`role\` in ('admin', 'member')) not null, \`invited_by_id\` text null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`accepted_at\` datetime null, constraint \`organization_invitations_organization_id_foreign\` foreign key (\`organization_id\`) references \`organizations\` (\`id\`) on update cascade on delete cascade, constraint \`organization_invitations_invited_by_id_foreign\` foreign key (\`invited_by_id\`) references \`members\` (\`id\`) on update cascade on delete set null);`);
    this.addSql(`create unique index \`organization_invitations_token_hash_unique\` on \`organization_invitations\` (\`token_hash\`);`);
    this.addSql(`create index \`organization_invitations_invited_by_id_index\` on \`organization_invitations\` (\`invited_by_id\`);`);
    this.addSql(`create index \`organization_invitations_organization_idx\` on \`organization_invitations\` (\`organization_id\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`organization_invitations\`;`);
  }

}
