import { Migration } from '@mikro-orm/migrations';

export class Migration20261126195654 extends Migration {

  override name = 'Migration20261126195654';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_keys" add "rolled_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_keys" drop column "rolled_at";`);
  }

}
