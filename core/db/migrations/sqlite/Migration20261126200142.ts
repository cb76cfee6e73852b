import { Migration } from '@mikro-orm/migrations';

export class Migration20261126200142 extends Migration {

  override name = 'Migration20261126200142';

  override up(): void | Promise<void> {
    this.addSql(`create table \`password_resets\` (\`token_hash\` text not null primary key, \`member_id\` text not null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`used_at\` datetime null, constraint \`password_resets_member_id_foreign\` foreign key (\`member_id\`) references \`members\` (\`id\`) on update cascade on delete cascade);`);
    this.addSql(`create index \`password_resets_member_idx\` on \`password_resets\` (\`member_id\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`password_resets\`;`);
  }

}
