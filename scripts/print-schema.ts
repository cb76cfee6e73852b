// Writes the schema's SDL to schema/schema.graphql (a test fails when it is stale).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { printSchema } from 'graphql';
import { schema } from '../schema/index.ts';

const path = resolve(import.meta.dirname, '../schema/schema.graphql');
writeFileSync(path, `${printSchema(schema)}\n`);
console.log(`wrote ${path}`);
