import { Migration } from '@mikro-orm/migrations';

// The browser session a team-chat connection started from the administration pages is bound to.
export class Migration20261125111341 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table \`team_chat_authorizations\` add column \`session_hash\` text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table \`team_chat_authorizations\` drop column \`session_hash\`;`);
  }

}
