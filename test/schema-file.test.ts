/**
 * migrations/schema.sql is the schema a fresh migration run gives: every versioned migration and
 * every SQL definition file. A change to either that is not followed by `npm run schema:dump`
 * fails here, so every schema change shows in review as a diff of that file.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withClient } from '../platform/database.ts';
import { schemaFileMajor, schemaFileText, serverMajor } from '../platform/schema-dump.ts';
import { installation } from '../runtime/installation.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

const SCHEMA_FILE = new URL('../migrations/schema.sql', import.meta.url);

/** The lines around the first difference, as a hint where to look. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((text, index) => text !== got[index]);
  const at = line === -1 ? want.length : line;
  return [
    `first difference at line ${at + 1}:`,
    `  file:     ${want[at] ?? '(end)'}`,
    `  database: ${got[at] ?? '(end)'}`,
  ].join('\n');
}

describe('migrations/schema.sql', () => {
  let database: TestDatabase<unknown>;
  beforeAll(async () => {
    database = await createTestDatabase({ as: 'owner' });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('is what a fresh migration run gives (else run `npm run schema:dump` and review the diff)', async (context) => {
    const file = readFileSync(SCHEMA_FILE, 'utf8');
    const { actual, major } = await withClient(database.ownerUrl, async (client) => ({
      actual: await schemaFileText(client, installation.schemas),
      major: await serverMajor(client),
    }));
    // Function bodies and index definitions are printed by the server; another major prints them differently.
    if (schemaFileMajor(file) !== major) {
      context.skip(`the file was written on PostgreSQL ${schemaFileMajor(file)}, this server is ${major}`);
    }
    expect(
      actual === file,
      `migrations/schema.sql is stale: run \`npm run schema:dump\`\n${firstDifference(file, actual)}`,
    ).toBe(true);
  });
});
