/**
 * The failover drill's cluster (reliability/patroni-cluster.ts: etcd, two Patroni nodes,
 * HAProxy), attacked from the outside as the compose `ha` profile would be:
 *
 * - etcd: without credentials nothing is read or written. An unauthenticated
 *   `POST /v3/kv/put` of Patroni's `config` key (the dynamic configuration: pg_hba, archive_command)
 *   was a superuser and a shell on every node; Patroni's own etcd user may touch only its
 *   namespace and may not turn authentication off.
 * - Postgres: no `trust` line survives initdb, so a wrong password is refused (28P01) over TCP,
 *   through HAProxy and on each node's own port, for every role.
 * - The owner that migrated the database is no superuser and cannot become one
 *   (deploy/patroni/post-bootstrap.sh made it, as Patroni runs it in the compose profile).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withClient } from '../platform/database.ts';
import { startPatroniCluster, type PatroniCluster } from './patroni-cluster.ts';

let cluster: PatroniCluster;

beforeAll(async () => {
  cluster = await startPatroniCluster({
    nodes: 2,
    logPrefix: 'patroni-security',
    progress: (message) => console.log(`[patroni-security] ${message}`),
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
});

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

async function etcd(path: string, body: unknown, token?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${cluster.etcd.url}/v3/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  return { status: response.status, text: await response.text() };
}

async function patroniToken(): Promise<string> {
  const { user, password } = cluster.etcd.patroni;
  const reply = await etcd('auth/authenticate', { name: user, password });
  expect(reply.status, reply.text).toBe(200);
  return (JSON.parse(reply.text) as { token: string }).token;
}

/** Connects with `password` and returns the SQLSTATE it failed with ('' when it connected). */
async function connectError(port: number, user: string, password: string, database: string): Promise<string> {
  const client = new pg.Client({ host: '127.0.0.1', port, user, password, database, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return '';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe("the failover drill's cluster, from the outside", () => {
  it("refuses an unauthenticated etcd write of Patroni's config key (and any read), while Patroni works through its own etcd user", async () => {
    const configKey = `${cluster.etcd.prefix}${cluster.scope}/config`;
    const evil = JSON.stringify({
      postgresql: { pg_hba: ['host all all 0.0.0.0/0 trust'], parameters: { archive_command: 'sh -c id' } },
    });
    const put = await etcd('kv/put', { key: base64(configKey), value: base64(evil) });
    expect(put.status, put.text).not.toBe(200);
    expect(put.text).toMatch(/user name is empty|permission denied/);
    const read = await etcd('kv/range', { key: base64(configKey) });
    expect(read.status, read.text).not.toBe(200);
    expect(read.text).toMatch(/user name is empty|permission denied/);
    const guessed = await etcd('auth/authenticate', { name: 'root', password: 'root' });
    expect(guessed.text).toMatch(/authentication failed/);

    // Patroni's user: its namespace only, and no say over authentication itself.
    const token = await patroniToken();
    const outside = await etcd('kv/put', { key: base64('/elsewhere'), value: base64('x') }, token);
    expect(outside.text).toMatch(/permission denied/);
    const disable = await etcd('auth/disable', {}, token);
    expect(disable.text).toMatch(/permission denied/);
    const config = await etcd('kv/range', { key: base64(configKey) }, token);
    expect(config.status, config.text).toBe(200);
    const stored = (JSON.parse(config.text) as { kvs?: { value: string }[] }).kvs?.[0]?.value ?? '';
    const dynamic = JSON.parse(Buffer.from(stored, 'base64').toString('utf8')) as Record<string, unknown>;
    expect(dynamic).toMatchObject({ synchronous_mode: true, synchronous_mode_strict: true });
    expect(JSON.stringify(dynamic)).not.toMatch(/trust|sh -c/);

    // Patroni still leads and replicates through etcd: a leader and a synchronous standby.
    await cluster.waitForHealthyMembers(2, 30_000);
    const members = await cluster.members();
    expect(members.map((member) => member.role).sort()).toEqual(['leader', 'sync_standby']);
  });

  it('refuses a wrong password over TCP (28P01), through HAProxy and on every node, for every role', async () => {
    const ports = [
      ['haproxy primary', cluster.primaryPort],
      ['haproxy replicas', cluster.replicaPort],
      ...cluster.nodes.map((node) => [node.name, node.pgPort] as const),
    ] as const;
    const runtimeUser = decodeURIComponent(new URL(cluster.primaryUrl).username);
    const ownerUser = decodeURIComponent(new URL(cluster.primaryOwnerUrl).username);
    for (const [where, port] of ports)
      for (const user of ['postgres', 'replicator', ownerUser, runtimeUser])
        for (const database of ['postgres', 'wallet'])
          expect(await connectError(port, user, 'not-the-password', database), `${user}@${where}/${database}`).toBe(
            '28P01',
          );
    // The right passwords still connect.
    for (const url of [cluster.primaryUrl, cluster.primaryOwnerUrl, cluster.replicaUrl])
      expect(await withClient(url, async (client) => (await client.query('select 1 as one')).rows[0])).toEqual({
        one: 1,
      });
  });

  it('migrated the database as an owner that is no superuser, cannot create roles and cannot grant itself server programs', async () => {
    await withClient(cluster.primaryOwnerUrl, async (client) => {
      const { rows } = await client.query<Record<string, unknown>>(`
        select current_user as user, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls,
               (select pg_get_userbyid(datdba) from pg_database where datname = current_database()) as database_owner,
               (select count(*)::int from public.kysely_migration) as migrations
          from pg_roles r where r.rolname = current_user`);
      expect(rows[0]).toMatchObject({
        user: 'wallet_owner',
        rolsuper: false,
        rolcreaterole: false,
        rolcreatedb: false,
        rolreplication: false,
        rolbypassrls: false,
        database_owner: 'wallet_owner',
      });
      expect(rows[0]?.migrations).toBeGreaterThan(0);
      // PostgreSQL 15's CREATEROLE could grant this (COPY ... TO PROGRAM: a shell as the postgres OS user).
      await expect(client.query('grant pg_execute_server_program to wallet_owner')).rejects.toMatchObject({
        code: '42501',
      });
      await expect(client.query("copy (select 1) to program 'true'")).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('create role wallet_sneaky login')).rejects.toMatchObject({ code: '42501' });
    });
  });
});
