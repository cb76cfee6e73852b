import { Migration } from '@mikro-orm/migrations';

export class Migration20261126212320 extends Migration {

  override name = 'Migration20261126212320';

  override up(): void | Promise<void> {
    this.addSql(`create table \`api_key_usage\` (\`organization_id\` text not null, \`day\` text not null, \`key_id\` text not null, \`answer\` text not null, \`calls\` integer not null default 0, primary key (\`organization_id\`, \`day\`, \`key_id\`, \`answer\`));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`api_key_usage\`;`);
  }

}
