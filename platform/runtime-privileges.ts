/**
 * What the connected role could do that the runtime must not: the check a production start
 * makes before serving (a misconfigured DATABASE_URL that names the owner or a superuser
 * would silently give the app the power to rewrite history). Each problem is a sentence an
 * operator can act on. Read-only: it asks the catalog, it tries nothing.
 */
import { sql, type Kysely } from 'kysely';
import { JOB_QUEUE_SCHEMA_POLICY, type SchemaPolicy } from './runtime-role.ts';

const TABLE_WRITES = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER', 'REFERENCES'];

interface RoleRow {
  user: string;
  superuser: boolean;
  create_role: boolean;
  bypass_rls: boolean;
  replication: boolean;
}

/**
 * `policies`: the application's schemas with what the runtime may do in each (the installation
 * a migration run is handed). The runtime must create objects in none of them (nor in pg-boss's
 * or public), and must neither own nor write a table of a schema it may only read (the ledger).
 */
export async function runtimePrivilegeProblems(
  db: Kysely<unknown>,
  policies: readonly SchemaPolicy[],
): Promise<string[]> {
  const readOnly = policies.filter((policy) => isReadOnly(policy)).map((policy) => policy.schema);
  const guarded = [...policies.map((policy) => policy.schema), JOB_QUEUE_SCHEMA_POLICY.schema, 'public'];
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
  problems.push(...(await readOnlyOwnership(db, role.user, readOnly)));
  // A superuser passes every privilege check, so a line per table and schema would only
  // repeat the first problem, with advice (revoke ...) that does not bind it.
  if (role.superuser) return problems;
  problems.push(...(await readOnlyWrites(db, role.user, readOnly)));
  problems.push(...(await createRights(db, role.user, guarded)));
  return problems;
}

/** A schema whose tables the runtime may only read: it writes there through the schema's functions, if at all. */
function isReadOnly(policy: SchemaPolicy): boolean {
  return policy.tables.length === 1 && policy.tables[0] === 'select' && (policy.updatable ?? []).length === 0;
}

/** Owning a table (or being a member of its owner) allows ALTER TABLE ... DISABLE TRIGGER and DROP. */
async function readOnlyOwnership(db: Kysely<unknown>, user: string, schemas: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ schema: string; owner: string; tables: string }>`
    select n.nspname as schema, pg_get_userbyid(c.relowner) as owner, string_agg(c.relname, ', ' order by c.relname) as tables
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any(${schemas}::text[]) and c.relkind in ('r', 'p')
       and pg_has_role(current_user, c.relowner, 'MEMBER')
     group by n.nspname, c.relowner
     order by n.nspname`.execute(db);
  return rows.map(
    (row) =>
      `${user} owns ${row.schema} tables (${row.tables}) as or through ${row.owner}: it could disable their triggers or drop them. Migrations run as the owner; the app must not.`,
  );
}

async function readOnlyWrites(db: Kysely<unknown>, user: string, schemas: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ schema: string; relname: string; privilege: string }>`
    select n.nspname as schema, c.relname, w.privilege
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      cross join unnest(${TABLE_WRITES}::text[]) as w(privilege)
     where n.nspname = any(${schemas}::text[]) and c.relkind in ('r', 'p')
       and (case when w.privilege in ('INSERT', 'UPDATE', 'REFERENCES') then has_any_column_privilege(c.oid, w.privilege)
                 else has_table_privilege(c.oid, w.privilege) end)
     order by n.nspname, c.relname, w.privilege`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const row of rows) {
    const table = `${row.schema}.${row.relname}`;
    byTable.set(table, [...(byTable.get(table) ?? []), row.privilege]);
  }
  return [...byTable].map(
    ([table, privileges]) =>
      `${user} may ${privileges.join('/')} ${table}: the runtime only reads that schema's tables and writes through its functions.`,
  );
}

async function createRights(db: Kysely<unknown>, user: string, schemas: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ nspname: string }>`
    select nspname from pg_namespace
     where nspname = any(${schemas}::text[]) and has_schema_privilege(oid, 'CREATE')
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
