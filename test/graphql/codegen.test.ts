import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, generatedFiles } from '../../scripts/codegen.ts';

// facades/generated/ holds the typed documents of the facades' operations (`npm run codegen`):
// they must match the schema and the operations as written, or the facades' types would lie.

const ROOT = resolve(import.meta.dirname, '../..');

describe('generated operation documents', () => {
  it("facades/generated is up to date with the schema and every facade's operations", async () => {
    const files = await generatedFiles();
    expect(files.length).toBeGreaterThan(1);
    const stale = files.filter((file) => readFileSync(resolve(ROOT, file.path), 'utf8') !== file.content).map((file) => file.path);
    expect(stale, 'stale generated files: run `npm run codegen` and commit the result').toEqual([]);
  });

  it('facades/generated holds nothing the generator does not write', async () => {
    const written = new Set((await generatedFiles()).map((file) => file.path));
    const present = readdirSync(resolve(ROOT, GENERATED_DIR)).map((name) => `${GENERATED_DIR}/${name}`);
    expect(
      present.filter((path) => !written.has(path)),
      'left-over generated files: delete them',
    ).toEqual([]);
  });
});
