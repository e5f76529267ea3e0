/**
 * What the connected role could do that the runtime must not: the check a production start
 * makes before serving (a misconfigured DATABASE_URL that names the owner or a superuser
 * would silently give the app the power to rewrite history). Each problem is a sentence an
 * operator can act on. Read-only: it asks the catalog, it tries nothing.
 */
import { sql, type Kysely } from 'kysely';

/** Schemas in which the runtime must not create objects. */
const GUARDED_SCHEMAS = ['ledger', 'read', 'identity', 'audit', 'pgboss', 'ratelimit', 'replay', 'public'];
const LEDGER_WRITES = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER', 'REFERENCES'];

interface RoleRow {
  user: string;
  superuser: boolean;
  create_role: boolean;
  bypass_rls: boolean;
  replication: boolean;
}

export async function runtimePrivilegeProblems(db: Kysely<unknown>): Promise<string[]> {
  const problems: string[] = [];
  const { rows } = await sql<RoleRow>`
    select current_user as user, rolsuper as superuser, rolcreaterole as create_role, rolbypassrls as bypass_rls, rolreplication as replication
      from pg_roles where rolname = current_user`.execute(db);
  const role = rows[0];
  if (!role) throw new Error('the connected role is not in pg_roles');
  if (role.superuser) {
    problems.push(
      `${role.user} is a superuser: grants and table ownership do not bind it (it can rewrite the ledger, run DDL and disable triggers). Connect as a member of wallet_runtime.`,
    );
  }
  if (role.create_role) problems.push(`${role.user} has CREATEROLE: it could grant itself other roles' privileges.`);
  if (role.replication)
    problems.push(`${role.user} has REPLICATION: it could stream every table, whatever its grants.`);
  if (role.bypass_rls)
    problems.push(`${role.user} has BYPASSRLS: a runtime role needs no exemption from row security.`);
  problems.push(...(await ledgerOwnership(db, role.user)));
  // A superuser passes every privilege check, so a line per table and schema would only
  // repeat the first problem, with advice (revoke ...) that does not bind it.
  if (role.superuser) return problems;
  problems.push(...(await ledgerWrites(db, role.user)));
  problems.push(...(await createRights(db, role.user)));
  return problems;
}

/** Owning a table (or being a member of its owner) allows ALTER TABLE ... DISABLE TRIGGER and DROP. */
async function ledgerOwnership(db: Kysely<unknown>, user: string): Promise<string[]> {
  const { rows } = await sql<{ owner: string; tables: string }>`
    select pg_get_userbyid(c.relowner) as owner, string_agg(c.relname, ', ' order by c.relname) as tables
      from pg_class c
     where c.relnamespace = 'ledger'::regnamespace and c.relkind in ('r', 'p')
       and pg_has_role(current_user, c.relowner, 'MEMBER')
     group by c.relowner`.execute(db);
  return rows.map(
    (row) =>
      `${user} owns ledger tables (${row.tables}) as or through ${row.owner}: it could disable their triggers or drop them. Migrations run as the owner; the app must not.`,
  );
}

async function ledgerWrites(db: Kysely<unknown>, user: string): Promise<string[]> {
  const { rows } = await sql<{ relname: string; privilege: string }>`
    select c.relname, w.privilege
      from pg_class c cross join unnest(${LEDGER_WRITES}::text[]) as w(privilege)
     where c.relnamespace = 'ledger'::regnamespace and c.relkind in ('r', 'p')
       and (case when w.privilege in ('INSERT', 'UPDATE', 'REFERENCES') then has_any_column_privilege(c.oid, w.privilege)
                 else has_table_privilege(c.oid, w.privilege) end)
     order by c.relname, w.privilege`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const row of rows) byTable.set(row.relname, [...(byTable.get(row.relname) ?? []), row.privilege]);
  return [...byTable].map(
    ([table, privileges]) =>
      `${user} may ${privileges.join('/')} ledger.${table}: the ledger is written only through ledger.append.`,
  );
}

async function createRights(db: Kysely<unknown>, user: string): Promise<string[]> {
  const { rows } = await sql<{ nspname: string }>`
    select nspname from pg_namespace
     where nspname = any(${GUARDED_SCHEMAS}::text[]) and has_schema_privilege(oid, 'CREATE')
     order by nspname`.execute(db);
  const problems = rows.map(
    (row) => `${user} may create objects in schema ${row.nspname} (DDL): revoke CREATE on it from ${user} and PUBLIC.`,
  );
  const database = await sql<{
    allowed: boolean;
  }>`select has_database_privilege(current_database(), 'CREATE') as allowed`.execute(db);
  if (database.rows[0]?.allowed)
    problems.push(
      `${user} may create schemas in this database (DDL): revoke CREATE on the database from ${user} and PUBLIC.`,
    );
  return problems;
}
