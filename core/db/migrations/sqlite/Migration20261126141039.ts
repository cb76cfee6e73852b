import { Migration } from '@mikro-orm/migrations';

// Ids claimed once for every instance and restart: a one-time secret shown once stays shown.
export class Migration20261126141039 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`once_marks\` (\`id\` text not null, \`expires_at\` datetime not null, primary key (\`id\`));`);
    this.addSql(`create index \`once_marks_expires_idx\` on \`once_marks\` (\`expires_at\`);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists \`once_marks\`;`);
  }

}
