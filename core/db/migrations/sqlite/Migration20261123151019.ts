import { Migration } from '@mikro-orm/migrations';

// The events feed index gains `ends_at`, the list's remaining filter, so ended events are passed
// over inside the index. Trimmed from the generator's output, which also rebuilt unchanged tables.
export class Migration20261123151019 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index \`events_upcoming_feed_idx\` on \`events\` (\`status\`, \`demo\`, \`starts_at\`, \`id\`, \`ends_at\`);`);
    this.addSql(`drop index \`events_public_feed_idx\`;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index \`events_public_feed_idx\` on \`events\` (\`status\`, \`demo\`, \`starts_at\`, \`id\`);`);
    this.addSql(`drop index \`events_upcoming_feed_idx\`;`);
  }

}
