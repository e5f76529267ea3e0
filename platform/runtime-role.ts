/**
 * The runtime role: `wallet_runtime`, a NOLOGIN group role holding every privilege the API,
 * the workers and the operator CLI need, and nothing more. Owns:
 * - creating it (and the login role the app connects as, a member of it) when missing;
 * - its grants, by the schema policies it is handed (each domain states its own:
 *   runtime/installation.ts puts them together), re-applied after every migration run, so a
 *   table a later migration adds gets its schema's grants without anyone remembering to write
 *   them.
 * Everything here runs as the owner (the role that runs migrations). docs/security.md, "Least
 * privilege in the database", lists what each privilege is for and where the rest is enforced.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

export const RUNTIME_ROLE = 'wallet_runtime';

type TablePrivilege = 'select' | 'insert' | 'update' | 'delete';

export interface SchemaPolicy {
  schema: string;
  /** What the runtime may do to every table of the schema; `['select']` alone makes the schema read-only to it (runtime-privileges.ts checks that it owns and writes none of them). */
  tables: readonly TablePrivilege[];
  /** Tables of the schema that also get UPDATE (rows the runtime keeps up to date). */
  updatable?: readonly string[];
  /** EXECUTE on every function of the schema (all of them run as their owner or need no rights). */
  functions: boolean;
}

/**
 * pg-boss's schema (platform/jobs.ts): the runtime's job queues, written row by row, and the
 * library's functions. Granted with the policies a migration run is handed; a schema in none
 * of them gets nothing, and one that does not exist yet (added by a later migration) is
 * skipped until it does.
 */
export const JOB_QUEUE_SCHEMA_POLICY: SchemaPolicy = {
  schema: 'pgboss',
  tables: ['select', 'insert', 'update', 'delete'],
  functions: true,
};

/** The migrator's bookkeeping (schema public): read by a runtime start to see that migrations are current. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

/** Serialises grant runs (two processes migrating at once would race on the same catalog rows). */
const GRANTS_LOCK = 'wallet:runtime-grants';

/** Creates `wallet_runtime` (NOLOGIN) unless it exists. Roles are cluster-wide, so a concurrent creator may win. */
export async function ensureRuntimeRole(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    begin
      if not exists (select 1 from pg_roles where rolname = 'wallet_runtime') then
        create role wallet_runtime nologin;
      end if;
    exception when duplicate_object or unique_violation then
      null; -- created meanwhile by another migration run on this cluster
    end
    $$`.execute(db);
}

/**
 * Re-applies the runtime's grants by schema policy, from scratch in one transaction: revoke
 * everything the runtime holds in each schema, grant what the policy says. Revoking first
 * means a policy that narrows takes effect on existing tables too.
 */
export async function applyRuntimeGrants(db: Kysely<unknown>, policies: readonly SchemaPolicy[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${GRANTS_LOCK}))`.execute(trx);
    const { rows } = await sql<{ nspname: string }>`select nspname from pg_namespace`.execute(trx);
    const existing = new Set(rows.map((row) => row.nspname));
    for (const policy of [...policies, JOB_QUEUE_SCHEMA_POLICY]) {
      if (existing.has(policy.schema)) await applySchemaPolicy(trx, policy);
    }
    await lockDownPublicSchema(trx);
  });
}

async function applySchemaPolicy(db: Kysely<unknown>, policy: SchemaPolicy): Promise<void> {
  const schema = sql.id(policy.schema);
  const role = sql.id(RUNTIME_ROLE);
  await sql`revoke all on all tables in schema ${schema} from ${role}`.execute(db);
  await sql`revoke all on all sequences in schema ${schema} from ${role}`.execute(db);
  await sql`revoke all on all functions in schema ${schema} from ${role}`.execute(db);
  // Nobody but the owner creates objects in the app's schemas (PUBLIC never had it; this
  // also undoes a grant made by hand).
  await sql`revoke create on schema ${schema} from public, ${role}`.execute(db);
  await sql`grant usage on schema ${schema} to ${role}`.execute(db);
  if (policy.tables.length > 0) {
    await sql`grant ${sql.raw(policy.tables.join(', '))} on all tables in schema ${schema} to ${role}`.execute(db);
  }
  // Identity columns and serials draw from sequences: wherever the runtime inserts.
  if (policy.tables.includes('insert'))
    await sql`grant usage, select on all sequences in schema ${schema} to ${role}`.execute(db);
  for (const table of policy.updatable ?? []) {
    const { rows } = await sql<{
      found: boolean;
    }>`select to_regclass(${`${policy.schema}.${table}`}) is not null as found`.execute(db);
    if (rows[0]?.found) await sql`grant update on table ${sql.id(policy.schema, table)} to ${role}`.execute(db);
  }
  if (policy.functions) {
    // Functions are executable by PUBLIC by default: the ledger's and replay's run as the owner,
    // so only the runtime may call them. pg-boss's are the library's own.
    if (policy !== JOB_QUEUE_SCHEMA_POLICY)
      await sql`revoke execute on all functions in schema ${schema} from public`.execute(db);
    await sql`grant execute on all functions in schema ${schema} to ${role}`.execute(db);
  }
}

/**
 * Before PostgreSQL 15 every role could create objects in schema public; databases created
 * on an older server keep that grant after an upgrade. Revoking needs the database owner (or
 * a superuser); for anyone else REVOKE only warns, and runtimePrivilegeProblems reports it.
 */
async function lockDownPublicSchema(db: Kysely<unknown>): Promise<void> {
  const role = sql.id(RUNTIME_ROLE);
  await sql`revoke create on schema public from public, ${role}`.execute(db);
  for (const table of MIGRATION_TABLES) {
    const { rows } = await sql<{
      found: boolean;
    }>`select to_regclass(${`public.${table}`}) is not null as found`.execute(db);
    if (rows[0]?.found) await sql`grant select on table ${sql.id('public', table)} to ${role}`.execute(db);
  }
}

export interface RuntimeLogin {
  user: string;
  /** Empty: no password (trust or peer authentication). */
  password: string;
}

/** The login a connection string names (user and password, URL-decoded). */
export function loginOf(connectionString: string): RuntimeLogin {
  const url = new URL(connectionString);
  return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

/**
 * Makes `login` a login role that is a member of wallet_runtime: created with its password if
 * missing; if it exists, only the membership is granted (its password belongs to whoever made
 * it) unless `resetPassword` (the embedded server, whose roles are all ours). The password
 * travels as a SCRAM verifier, never as plain text in a statement a server log could keep.
 */
export async function ensureRuntimeLogin(
  db: Kysely<unknown>,
  login: RuntimeLogin,
  options: { resetPassword?: boolean } = {},
): Promise<void> {
  const { rows } = await sql<{ exists: boolean; member: boolean }>`
    select count(*) > 0 as exists, coalesce(bool_or(pg_has_role(r.oid, ${RUNTIME_ROLE}, 'MEMBER')), false) as member
      from pg_roles r where r.rolname = ${login.user}`.execute(db);
  const role = sql.id(login.user);
  const password = login.password ? sql`password ${sql.lit(scramVerifier(login.password))}` : sql``;
  if (!rows[0]?.exists) {
    try {
      await sql`create role ${role} login ${password} in role ${sql.id(RUNTIME_ROLE)}`.execute(db);
      return;
    } catch (error) {
      // Created meanwhile by another run on this cluster (42710 duplicate_object): grant below.
      if ((error as { code?: string }).code !== '42710') throw error;
    }
  }
  if (options.resetPassword && login.password) await sql`alter role ${role} login ${password}`.execute(db);
  if (!rows[0]?.member) await sql`grant ${sql.id(RUNTIME_ROLE)} to ${role}`.execute(db);
}

/** `connectionString` with another user and password (same server and database). */
export function withLogin(connectionString: string, login: RuntimeLogin): string {
  const url = new URL(connectionString);
  url.username = encodeURIComponent(login.user);
  url.password = encodeURIComponent(login.password);
  return url.toString();
}

/** Same user in both URLs: a single-role setup, no separate login to create. */
export function isSeparateLogin(ownerUrl: string, runtimeUrl: string): boolean {
  return loginOf(ownerUrl).user !== loginOf(runtimeUrl).user;
}

/**
 * A SCRAM-SHA-256 verifier (RFC 5802/7677) in PostgreSQL's stored form, which CREATE ROLE
 * accepts as is. The password is used as its UTF-8 bytes: PostgreSQL's SASLprep leaves
 * ordinary passwords (ASCII, or already NFKC-normalised) unchanged.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
