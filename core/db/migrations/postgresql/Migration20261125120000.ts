import { Migration } from '@mikro-orm/migrations';

// Each attempt keeps the headers it sent (signatures included) and the receiver's (without cookies).
export class Migration20261125120000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "delivery_attempts" add column "request_headers" text null, add column "response_headers" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "delivery_attempts" drop column "request_headers", drop column "response_headers";`);
  }

}
