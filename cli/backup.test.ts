/**
 * `npm run ledger -- backup` really restores: a persistent embedded Postgres in a temporary
 * data directory, migrated and written to (transfers and checkpoints also while the backup runs:
 * a copy without its backup_label then restores to torn account heads); the backup; then a new
 * server on a copy of the backup's data directory starts, has every event appended before the
 * backup began, verifies and sums to zero. And a backup without its WAL does not start.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { verifyLedger } from '../audit/index.ts';
import { createLedger, rupees, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { createDatabase, tablesView } from '../platform/database.ts';
import { ensureDatabase } from '../platform/database-server.ts';
import { EMBEDDED_DATABASE } from '../platform/embedded-login.ts';
import { startEmbeddedPostgres, type EmbeddedServer } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import type { BackupManifest } from './backup.ts';
import { capturedIo } from './io.ts';
import { EXIT_OK, runCli } from './main.ts';
import { openFundedWallets } from '../test/funded-wallets.ts';

const as = (actorId: string) => ({ actorId });
const roots: string[] = [];
let root: string;
let server: EmbeddedServer | undefined;
let db: Kysely<unknown>;
let ledger: Ledger;

function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-backup-'));
  roots.push(dir);
  return dir;
}

async function transfer(id: string): Promise<void> {
  await ledger.transfer(
    { transferId: id, fromAccountId: 'alice', toAccountId: 'bob', amountPaise: rupees(1), reference: id },
    as('alice'),
  );
}

async function eventCount(target: Kysely<unknown>): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*)::int as count from ledger.events`.execute(target);
  return rows[0]?.count ?? 0;
}

/** A new server on a copy of the backup's data directory (cp -a keeps the owner and mode 0700). */
async function restore(
  dataDir: string,
  prepare: (copy: string) => void = () => {},
): Promise<{ server: EmbeddedServer; root: string }> {
  const restoreRoot = tempRoot();
  execFileSync('cp', ['-a', dataDir, join(restoreRoot, 'postgres')]);
  // The cluster's superuser password stays in the data directory the restore goes back into.
  execFileSync('cp', ['-a', join(root, 'postgres-superuser-password'), restoreRoot]);
  prepare(join(restoreRoot, 'postgres'));
  const restored = await startEmbeddedPostgres({ dataDir: join(restoreRoot, 'postgres'), persistent: true }).catch(
    (error: unknown) => {
      // embedded-postgres rejects with nothing when the server exits during start-up.
      throw new Error(`Postgres did not start on the restored copy of ${dataDir}`, { cause: error });
    },
  );
  return { server: restored, root: restoreRoot };
}

beforeAll(async () => {
  root = tempRoot();
  server = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), persistent: true });
  await ensureDatabase(server.url('postgres'), EMBEDDED_DATABASE);
  await migrateDatabase(server.url(EMBEDDED_DATABASE), installation);
  db = createDatabase<unknown>({ connectionString: server.url(EMBEDDED_DATABASE), maxConnections: 4 });
  ledger = createLedger({ db: tablesView<LedgerTables>(db) });
  await openFundedWallets(ledger, ['alice', 'bob'], rupees(10_000));
  for (let i = 0; i < 50; i += 1) await transfer(`before-${i}`);
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

describe('backup', () => {
  let manifest: BackupManifest;
  let eventsBefore: number;
  let writtenDuring = 0;

  it('writes a backup into <DATA_DIR>/backups while writes go on', async () => {
    eventsBefore = await eventCount(db);
    let backingUp = true;
    const writer = (async () => {
      for (let i = 0; backingUp; i += 1) {
        await transfer(`during-${i}`);
        writtenDuring += 1;
      }
    })();
    // Checkpoints while the files are copied: the copy must restore from the backup's start
    // (backup_label), not from the checkpoint its pg_control happens to name.
    let checkpoints = 0;
    const checkpointer = (async () => {
      while (backingUp) {
        // Not a wait for the system: the pace of the checkpoints taken during the copy.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sql`checkpoint`.execute(db);
        checkpoints += 1;
      }
    })();
    const io = capturedIo();
    const started = performance.now();
    const code = await runCli(['backup', '--json'], io, { DATA_DIR: root });
    const tookMs = performance.now() - started;
    backingUp = false;
    await Promise.all([writer, checkpointer]);
    expect(code, io.stderr.join('\n')).toBe(EXIT_OK);
    manifest = JSON.parse(io.stdout.join('\n')) as BackupManifest;
    console.log(
      `backup of a small database: ${manifest.files} files, ${manifest.walSegments} WAL segments, ` +
        `${manifest.bytes} bytes in ${Math.round(tookMs)} ms; ${writtenDuring} transfers and ${checkpoints} checkpoints meanwhile`,
    );
    expect(manifest.path).toBe(join(root, 'backups', readdirSync(join(root, 'backups'))[0] ?? ''));
    expect(io.stderr.join('\n')).toContain('backup started at WAL');
    expect(writtenDuring).toBeGreaterThan(0);
    expect(checkpoints).toBeGreaterThan(0);
    const data = join(manifest.path, 'data');
    expect(statSync(manifest.path).mode & 0o777).toBe(0o700);
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'backups')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(data, 'backup_label'), 'utf8')).toContain(`LABEL: ${manifest.label}`);
    expect(existsSync(join(data, 'postmaster.pid'))).toBe(false);
    expect(readdirSync(join(data, 'pg_wal')).filter((file) => /^[0-9A-F]{24}$/.test(file))).toHaveLength(
      manifest.walSegments,
    );
    expect(JSON.parse(readFileSync(join(manifest.path, 'manifest.json'), 'utf8'))).toMatchObject({
      startLsn: manifest.startLsn,
      stopLsn: manifest.stopLsn,
      serverVersion: expect.stringMatching(/^18\./),
    });
  });

  it('restores: a new server on a copy of the data starts with every earlier event, verifies and sums to zero', async () => {
    // The original keeps running: the restored copy is a separate server on its own port.
    const restored = await restore(join(manifest.path, 'data'));
    const copy = createDatabase<unknown>({
      connectionString: restored.server.url(EMBEDDED_DATABASE),
      maxConnections: 2,
    });
    try {
      const count = await eventCount(copy);
      expect(count).toBeGreaterThanOrEqual(eventsBefore);
      expect(count).toBeLessThanOrEqual(eventsBefore + writtenDuring);
      const { rows } = await sql<{ missing: number }>`
        select count(*)::int as missing from generate_series(0, 49) as i
        where not exists (select 1 from ledger.events where stream_id = 'transfer-before-' || i)`.execute(copy);
      expect(rows[0]?.missing).toBe(0);
      const report = await verifyLedger(copy);
      expect(report.differences, report.differences.join('\n')).toEqual([]);
      expect(report.totalPaise).toBe(0n);
      const sum = await sql<{
        total: string;
      }>`select coalesce(sum(amount), 0)::text as total from ledger.postings`.execute(copy);
      expect(sum.rows[0]?.total).toBe('0');
    } finally {
      await copy.destroy();
      await restored.server.stop();
    }
  });

  it('is no backup without its WAL: the copy does not start', async () => {
    const outcome = await restore(join(manifest.path, 'data'), (copy) => {
      for (const file of readdirSync(join(copy, 'pg_wal')))
        if (/^[0-9A-F]{24}$/.test(file)) rmSync(join(copy, 'pg_wal', file));
    }).then(
      async (restored) => {
        await restored.server.stop();
        return 'started';
      },
      () => 'did not start',
    );
    expect(outcome).toBe('did not start');
  });

  it('--keep N removes older backups', async () => {
    // Not a wait for the system: a backup is named to the second (backupName), so the clock
    // must move on for the second backup to get a name of its own.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const io = capturedIo();
    expect(await runCli(['backup', '--keep', '1', '--json'], io, { DATA_DIR: root })).toBe(EXIT_OK);
    const second = JSON.parse(io.stdout.join('\n')) as BackupManifest;
    expect(second.removed).toEqual([manifest.path]);
    expect(readdirSync(join(root, 'backups'))).toEqual([second.path.split('/').pop()]);
  });

  it('refuses with DATABASE_URL, and rejects a bad --keep', async () => {
    const io = capturedIo();
    expect(await runCli(['backup'], io, { DATABASE_URL: 'postgres://x@127.0.0.1:1/x', DATA_DIR: root })).toBe(4);
    expect(io.stderr.join('\n')).toContain('pg_basebackup');
    expect(await runCli(['backup', '--keep', '0'], capturedIo(), { DATA_DIR: root })).toBe(2);
  });
});
