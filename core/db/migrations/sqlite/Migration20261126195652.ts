import { Migration } from '@mikro-orm/migrations';

export class Migration20261126195652 extends Migration {

  override name = 'Migration20261126195652';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`api_keys\` add column \`rolled_at\` datetime null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`api_keys\` drop column \`rolled_at\`;`);
  }

}
