import { Migration } from '@mikro-orm/migrations';

// What each transaction touched, for fine-grained cache retirement (core/components/change-feed.ts).
export class Migration20261125093000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`changes\` (\`seq\` integer not null primary key autoincrement, \`kind\` text not null, \`resource_id\` text not null, \`lists\` text not null default '', \`at\` datetime not null);`);
    this.addSql(`create index \`changes_at_idx\` on \`changes\` (\`at\`);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists \`changes\`;`);
  }

}
