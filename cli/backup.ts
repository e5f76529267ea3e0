/**
 * `npm run ledger -- backup`: a physical online backup of the embedded Postgres (the default
 * when DATABASE_URL is unset), with Postgres's own low-level API, because the embedded package
 * ships no pg_dump or pg_basebackup. On one superuser session: a temporary replication slot
 * keeps the WAL from being recycled, `pg_backup_start` checkpoints, the data directory is
 * copied file by file (skipping what the Postgres documentation says to skip; a file that
 * vanishes meanwhile is fine), `pg_backup_stop` answers the backup_label (and tablespace_map),
 * and the WAL segments from the start LSN's to the stop LSN's are copied into the backup's
 * pg_wal/. Starting Postgres on the copied directory then replays to a consistent point with
 * no WAL archive. The backup is written to `<DATA_DIR>/backups/<UTC time>.partial/` and renamed
 * to `<DATA_DIR>/backups/<UTC time>/` (data/ and manifest.json, mode 0700) only when complete.
 */
import { existsSync, realpathSync } from 'node:fs';
import { chmod, chown, copyFile, lstat, mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { openDatabaseServer, runningEmbeddedPort } from '../platform/database-server.ts';
import { EXIT_OK } from './help.ts';
import type { CliIo } from './io.ts';

/** Top-level directories kept empty in a backup (their contents are rebuilt or not needed at start). */
const EMPTY_DIRECTORIES = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
/** Files never copied, wherever they are (as pg_basebackup leaves them out). */
const SKIPPED_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'pg_internal.init',
  'backup_label',
  'backup_label.old',
  'tablespace_map',
  'tablespace_map.old',
  'backup_manifest',
  'postgresql.auto.conf.tmp',
]);
/** Copied after every other file, as pg_basebackup does. */
const CONTROL_FILE = join('global', 'pg_control');
const WAL_SEGMENT = /^[0-9A-F]{24}$/;
const BACKUP_NAME = /^\d{8}T\d{6}Z$/;

export interface BackupManifest {
  label: string;
  path: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  serverVersion: string;
  startLsn: string;
  stopLsn: string;
  firstWalSegment: string;
  lastWalSegment: string;
  walSegments: number;
  /** Data files copied (WAL segments not included). */
  files: number;
  /** Files that vanished while being copied (dropped tables, rotated temporary files). */
  vanished: number;
  /** Bytes copied, WAL included. */
  bytes: number;
  /** Older backups removed by --keep. */
  removed: string[];
}

export interface BackupOptions {
  /** A superuser connection to the server whose data directory is `pgData`. */
  superuserUrl: string;
  /** The server's data directory (`<DATA_DIR>/postgres`). */
  pgData: string;
  /** Where backups go (`<DATA_DIR>/backups`). */
  backupsDir: string;
  /** Keep this many newest backups (this one included) and remove older ones. */
  keep?: number | undefined;
  /** Progress lines for people (stderr). */
  progress?: (line: string) => void;
  now?: () => Date;
}

/** 20261126T074601Z: sorts by time, and has no colons (not allowed on every file system). */
export function backupName(time: Date): string {
  return time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

interface CopyState {
  files: number;
  vanished: number;
  bytes: number;
  asRoot: boolean;
}

function isVanished(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The copy has the original's mode and, as root (the server runs as `postgres`), its owner. */
async function keepOwnerAndMode(path: string, mode: number, uid: number, gid: number, asRoot: boolean) {
  await chmod(path, mode & 0o7777);
  if (asRoot) await chown(path, uid, gid);
}

/** Copies one file; answers false when it vanished before it could be copied. */
async function copyOne(source: string, target: string, state: CopyState): Promise<boolean> {
  try {
    const stats = await lstat(source);
    await copyFile(source, target);
    const copied = await lstat(target);
    await keepOwnerAndMode(target, stats.mode, stats.uid, stats.gid, state.asRoot);
    await fsyncFile(target);
    state.bytes += copied.size;
    return true;
  } catch (error) {
    if (!isVanished(error)) throw error;
    await rm(target, { force: true });
    state.vanished += 1;
    return false;
  }
}

async function copyTree(source: string, target: string, relative: string, state: CopyState): Promise<void> {
  let entries;
  try {
    entries = await readdir(source, { withFileTypes: true });
  } catch (error) {
    if (isVanished(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    const path = relative ? join(relative, entry.name) : entry.name;
    if (SKIPPED_FILES.has(entry.name) || entry.name.startsWith('pgsql_tmp') || path === CONTROL_FILE) continue;
    let stats;
    try {
      stats = await lstat(from);
    } catch (error) {
      if (isVanished(error)) continue;
      throw error;
    }
    if (relative === '' && EMPTY_DIRECTORIES.has(entry.name)) {
      // pg_wal may be a symbolic link (initdb --waldir): the backup gets a real directory.
      await mkdir(to, { mode: 0o700 });
      await keepOwnerAndMode(to, 0o700, stats.uid, stats.gid, state.asRoot);
    } else if (stats.isDirectory()) {
      await mkdir(to, { mode: 0o700 });
      await keepOwnerAndMode(to, stats.mode, stats.uid, stats.gid, state.asRoot);
      await copyTree(from, to, path, state);
    } else if (stats.isFile()) {
      if (await copyOne(from, to, state)) state.files += 1;
    } else if (stats.isSymbolicLink() && relative === 'pg_tblspc') {
      throw new Error(`tablespace ${entry.name} is not supported by this backup (only the data directory is copied)`);
    }
  }
}

async function writeOwnedFile(path: string, text: string, owner: { uid: number; gid: number }, asRoot: boolean) {
  await writeFile(path, text, { mode: 0o600 });
  if (asRoot) await chown(path, owner.uid, owner.gid);
  await fsyncFile(path);
}

function segmentNumber(name: string, segmentsPerId: bigint): bigint {
  return BigInt(`0x${name.slice(8, 16)}`) * segmentsPerId + BigInt(`0x${name.slice(16, 24)}`);
}

/** Removes complete backups older than the newest `keep` (names sort by time). */
async function removeOldBackups(backupsDir: string, keep: number): Promise<string[]> {
  const entries = await readdir(backupsDir, { withFileTypes: true });
  const complete = entries
    .filter((entry) => entry.isDirectory() && BACKUP_NAME.test(entry.name))
    .filter((entry) => existsSync(join(backupsDir, entry.name, 'manifest.json')))
    .map((entry) => entry.name)
    .sort();
  const old = complete.slice(0, Math.max(0, complete.length - keep));
  for (const name of old) await rm(join(backupsDir, name), { recursive: true, force: true });
  return old.map((name) => join(backupsDir, name));
}

/** Takes one backup of the running server; see the file's comment. */
export async function backupCluster(options: BackupOptions): Promise<BackupManifest> {
  const now = options.now ?? (() => new Date());
  const say = options.progress ?? (() => {});
  const pgData = realpathSync(options.pgData);
  const started = now();
  const name = backupName(started);
  const backupsDir = resolve(options.backupsDir);
  await mkdir(backupsDir, { recursive: true, mode: 0o700 });
  await chmod(backupsDir, 0o700);
  const finalDir = join(backupsDir, name);
  const partialDir = `${finalDir}.partial`;
  if (existsSync(finalDir)) throw new Error(`${finalDir} already exists: wait a second and try again`);
  await rm(partialDir, { recursive: true, force: true });
  await mkdir(partialDir, { mode: 0o700 });
  const target = join(partialDir, 'data');
  const owner = await lstat(pgData);
  const state: CopyState = { files: 0, vanished: 0, bytes: 0, asRoot: process.getuid?.() === 0 };
  const label = `wallet backup ${name}`;
  const client = new pg.Client({ connectionString: options.superuserUrl, application_name: 'wallet-cli-backup' });
  await client.connect();
  try {
    const settings = await client.query<{ data_directory: string; wal_level: string; version: string; seg: string }>(
      `select current_setting('data_directory') as data_directory, current_setting('wal_level') as wal_level,
              current_setting('server_version') as version,
              (select setting from pg_settings where name = 'wal_segment_size') as seg`,
    );
    const server = settings.rows[0];
    if (!server) throw new Error('the server answered no settings');
    if (realpathSync(server.data_directory) !== pgData)
      throw new Error(`the server's data directory is ${server.data_directory}, not ${pgData}`);
    if (server.wal_level === 'minimal')
      throw new Error('wal_level is minimal: an online backup needs replica or logical');
    // WAL from here on stays in pg_wal until this session ends (the slot is temporary).
    await client.query('select pg_create_physical_replication_slot($1, true, true)', [`wallet_backup_${process.pid}`]);
    const start = await client.query<{ lsn: string; wal: string }>(
      'select lsn::text as lsn, pg_walfile_name(lsn) as wal from pg_backup_start($1, fast => true) as lsn',
      [label],
    );
    const startLsn = start.rows[0]?.lsn ?? '';
    const firstWal = start.rows[0]?.wal ?? '';
    say(`backup started at WAL ${startLsn}; copying ${pgData} into ${target}`);
    await mkdir(target, { mode: 0o700 });
    await keepOwnerAndMode(target, 0o700, owner.uid, owner.gid, state.asRoot);
    await copyTree(pgData, target, '', state);
    if (!(await copyOne(join(pgData, CONTROL_FILE), join(target, CONTROL_FILE), state)))
      throw new Error(`${CONTROL_FILE} vanished`);
    state.files += 1;
    say(`copied ${state.files} files (${state.bytes} bytes, ${state.vanished} vanished while copying)`);
    const stop = await client.query<{ lsn: string; labelfile: string; spcmapfile: string | null }>(
      'select lsn::text as lsn, labelfile, spcmapfile from pg_backup_stop(wait_for_archive => false)',
    );
    const stopped = stop.rows[0];
    if (!stopped) throw new Error('pg_backup_stop answered nothing');
    await writeOwnedFile(join(target, 'backup_label'), stopped.labelfile, owner, state.asRoot);
    if (stopped.spcmapfile)
      await writeOwnedFile(join(target, 'tablespace_map'), stopped.spcmapfile, owner, state.asRoot);
    // pg_backup_stop already switches segments; this makes sure the stop LSN's is complete.
    await client.query('select pg_switch_wal()');
    const lastWal =
      (await client.query<{ wal: string }>('select pg_walfile_name($1::pg_lsn) as wal', [stopped.lsn])).rows[0]?.wal ??
      '';
    const segmentsPerId = 0x1_0000_0000n / BigInt(server.seg);
    const first = segmentNumber(firstWal, segmentsPerId);
    const last = segmentNumber(lastWal, segmentsPerId);
    const timeline = firstWal.slice(0, 8);
    const walDir = join(pgData, 'pg_wal');
    const segments = (await readdir(walDir))
      .filter((file) => WAL_SEGMENT.test(file) && file.startsWith(timeline))
      .filter((file) => {
        const number = segmentNumber(file, segmentsPerId);
        return number >= first && number <= last;
      })
      .sort();
    if (BigInt(segments.length) !== last - first + 1n)
      throw new Error(`WAL segments ${firstWal} to ${lastWal} are not all in ${walDir} (found ${segments.length})`);
    const walBytesBefore = state.bytes;
    const history = (await readdir(walDir)).filter((file) => /^[0-9A-F]{8}\.history$/.test(file));
    for (const file of [...segments, ...history]) {
      if (!(await copyOne(join(walDir, file), join(target, 'pg_wal', file), state)))
        throw new Error(`WAL segment ${file} vanished before it was copied`);
    }
    say(`copied WAL ${firstWal} to ${lastWal} (${segments.length} segments, ${state.bytes - walBytesBefore} bytes)`);
    const finished = now();
    const manifest: BackupManifest = {
      label,
      path: finalDir,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - started.getTime(),
      serverVersion: server.version,
      startLsn,
      stopLsn: stopped.lsn,
      firstWalSegment: firstWal,
      lastWalSegment: lastWal,
      walSegments: segments.length,
      files: state.files,
      vanished: state.vanished,
      bytes: state.bytes,
      removed: [],
    };
    await writeFile(join(partialDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await fsyncFile(join(partialDir, 'manifest.json'));
    await rename(partialDir, finalDir);
    await fsyncFile(backupsDir);
    if (options.keep !== undefined) {
      manifest.removed = await removeOldBackups(backupsDir, options.keep);
      for (const removed of manifest.removed) say(`removed the older backup ${removed}`);
    }
    return manifest;
  } catch (error) {
    // Ending the session aborts a backup still in progress and drops the slot.
    await rm(partialDir, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

export function formatBackup(manifest: BackupManifest): string {
  const lines = [
    `Backup written to ${manifest.path}`,
    `  data:      ${join(manifest.path, 'data')} (${manifest.files} files, ${manifest.walSegments} WAL segments, ${manifest.bytes} bytes)`,
    `  WAL:       ${manifest.startLsn} to ${manifest.stopLsn} (${manifest.firstWalSegment} to ${manifest.lastWalSegment})`,
    `  server:    PostgreSQL ${manifest.serverVersion}`,
    `  took:      ${(manifest.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const removed of manifest.removed) lines.push(`  removed:   ${removed} (--keep)`);
  lines.push(
    'To restore: stop `npm start`, move var/postgres aside, copy the data directory to var/postgres (`cp -a`, keeping mode 0700 and owner), start again (README "Back up and restore").',
  );
  return lines.join('\n');
}

export interface BackupPlan {
  keep: number | undefined;
}

export class BackupRefused extends Error {}

/**
 * Backs up the embedded server under `dataDir`: the running one (`npm start`), found through its
 * postmaster.pid, or one started for this command. With DATABASE_URL there is no data
 * directory here to copy: that server is backed up with its own tools.
 */
export async function runBackup(
  plan: BackupPlan,
  env: { DATABASE_URL?: string | undefined; DATA_DIR: string },
  io: CliIo,
): Promise<{ exitCode: number; text: string; data: BackupManifest }> {
  if (env.DATABASE_URL)
    throw new BackupRefused(
      "backup copies the embedded Postgres under DATA_DIR; with DATABASE_URL set, back that server up with its own tools (pg_basebackup, pg_dump, your provider's snapshots)",
    );
  const pgData = join(env.DATA_DIR, 'postgres');
  if (!existsSync(join(pgData, 'PG_VERSION')))
    throw new BackupRefused(`there is no embedded database in ${pgData}: nothing to back up`);
  const port = runningEmbeddedPort(env.DATA_DIR);
  const server = await openDatabaseServer({ dataDir: env.DATA_DIR });
  io.log.info(
    {
      command: 'backup',
      database: port ? `running embedded Postgres on port ${port}` : `embedded Postgres in ${pgData}`,
    },
    'database',
  );
  try {
    const manifest = await backupCluster({
      superuserUrl: server.ownerUrl ?? '',
      pgData,
      backupsDir: join(env.DATA_DIR, 'backups'),
      keep: plan.keep,
      progress: (line) => io.err(line),
    });
    return { exitCode: EXIT_OK, text: formatBackup(manifest), data: manifest };
  } finally {
    await server.stop();
  }
}
