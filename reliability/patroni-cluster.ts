/**
 * A Patroni-managed PostgreSQL 15 cluster on loopback ports, for the failover drill: one etcd
 * (Patroni's store: who leads, who is the synchronous standby), two or three Patroni nodes
 * running Debian's PostgreSQL 15 as the `postgres` OS user (Postgres refuses root), and HAProxy
 * routing one port to whichever node Patroni's REST `/primary` says leads and another to the
 * nodes `/replica` says follow. The app takes one host (node-postgres has no multi-host
 * failover), so DATABASE_URL is HAProxy's primary port and READ_DATABASE_URL its replica port.
 *
 * Secured as the compose `ha` profile is (docker-compose.yml, deploy/patroni/), with passwords
 * generated per run:
 * - etcd requires client authentication: a `root` user, and Patroni's own user `patroni`
 *   whose role may read and write Patroni's namespace only (`enableEtcdAuth`, through etcd's
 *   JSON gateway). Without it anyone reaching etcd could rewrite Patroni's `config` key
 *   (pg_hba, archive_command) and so become superuser and run commands on every node.
 * - No `trust` anywhere: initdb runs with `--auth-local=peer --auth-host=scram-sha-256`
 *   (its own pg_hba.conf would otherwise say trust, and `bootstrap.pg_hba` is only appended
 *   after those lines), and `postgresql.pg_hba` is the whole file Patroni writes on every node.
 * - Patroni bootstraps (initdb with checksums) and runs deploy/patroni/post-bootstrap.sh, the
 *   compose profile's own script: the owner `wallet_owner` (no superuser, no CREATEROLE), the
 *   `wallet` database, the runtime role and its login `wallet_app`. The database is then
 *   migrated as that owner through HAProxy's primary port, as the app migrates.
 * `stop()` kills everything it started and removes its directory; logs stay in
 * test-output/reliability/.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { installation } from '../runtime/installation.ts';
import { LOG_DIR } from './processes.ts';
import { waitUntil } from '../test/wait.ts';

export const POSTGRES_15_BIN = '/usr/lib/postgresql/15/bin';
const DATABASE = 'wallet';
const SCOPE = 'wallet-drill';
/** Patroni's etcd namespace: its keys are `${NAMESPACE}${SCOPE}/...` (leader, config, sync, members). */
const NAMESPACE = '/wallet/';
/** Patroni's etcd user (read-write on NAMESPACE only). */
const ETCD_PATRONI_USER = 'patroni';
/** The roles deploy/patroni/post-bootstrap.sh makes. */
const OWNER = 'wallet_owner';
const RUNTIME_LOGIN = 'wallet_app';
/** The compose profile's bootstrap script, run by Patroni here as there. */
const POST_BOOTSTRAP_SCRIPT = fileURLToPath(new URL('../deploy/patroni/post-bootstrap.sh', import.meta.url));

/**
 * Patroni's timing, chosen for a fast failover (the costs are in docs/operations.md):
 * - loop_wait 1 s: each node's HA loop runs every second (etcd traffic: one lease refresh and
 *   one read per node per second); a crashed primary's Patroni notices within a second.
 * - ttl 10 s: the leader key's lease. Only matters when the leader's Patroni itself dies (the
 *   whole machine): the others wait out the lease before they may promote. Shorter means a
 *   busy or paused leader (GC, I/O stall, network blip over retry_timeout) gets demoted.
 * - retry_timeout 4 s: how long etcd or Postgres may not answer before Patroni gives up on the
 *   operation; a leader that cannot reach etcd for that long demotes itself.
 * - primary_start_timeout 0: a primary whose Postgres crashed is not restarted in place (crash
 *   recovery, with the writes waiting); Patroni fails over to the synchronous standby at once,
 *   and the old primary comes back as a replica (pg_rewind).
 */
export const PATRONI_TIMING = { ttl: 10, loop_wait: 1, retry_timeout: 4, primary_start_timeout: 0 };

/** HAProxy's health checks of Patroni's REST: every 500 ms, down after 2 failures, up after 1 success. */
const HAPROXY_CHECK = 'inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1';

/** Every node's server settings (the benchmark starts its single-node baseline with the same). */
export const NODE_PARAMETERS = {
  max_connections: 200,
  max_wal_senders: 10,
  max_replication_slots: 10,
  wal_level: 'replica',
  hot_standby: 'on',
  wal_keep_size: '256MB',
  shared_buffers: '64MB',
  // A standby whose primary vanished retries streaming every second, not every 5 s:
  // in strict synchronous mode the new primary's commits wait until one re-attaches.
  wal_retrieve_retry_interval: '1s',
  // Durable as production: the drill is about what survives a crash.
  fsync: 'on',
  synchronous_commit: 'on',
  // No JIT compilation (issue 40, bench/RESULTS.md): the projector's rule statements are
  // estimated at replay-chunk size (events_in_range ROWS 20000, joined to postings with no
  // statistics yet), costs of 0.2-5 million, above jit_above_cost (and without statistics above
  // the inlining and optimization thresholds); every execution then compiled 15-65 functions
  // with LLVM, 0.15-1.2 s per statement, in every session that planned them once the tables had
  // grown, so in every session on a newly promoted node. Projection batches took seconds and payments waited out
  // the read-after-reply bound: 0.13x the payments/s after a switchover. A wallet's statements
  // are short; none gains from JIT. deploy/patroni/patroni.yml sets the same.
  jit: 'off',
} as const;

export interface PatroniNode {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  process: ChildProcess | undefined;
}

export interface ClusterMember {
  name: string;
  role: string;
  state: string;
  lag?: number | string;
  timeline?: number;
}

export interface PatroniCluster {
  /** HAProxy's primary port, as the runtime login `wallet_app` (DATABASE_URL). */
  primaryUrl: string;
  /** The same port as the owner `wallet_owner` (no superuser) that migrated the database. */
  primaryOwnerUrl: string;
  /** HAProxy's replica port, as the runtime login (READ_DATABASE_URL). */
  replicaUrl: string;
  primaryPort: number;
  replicaPort: number;
  /** Patroni's scope: its keys in etcd are `${etcd.prefix}${scope}/...`. */
  scope: string;
  /** etcd's client URL, Patroni's namespace in it and Patroni's etcd user (authentication is on). */
  etcd: { url: string; prefix: string; patroni: { user: string; password: string } };
  nodes: PatroniNode[];
  /** Patroni's view of the cluster (GET /cluster on any node that answers). */
  members(): Promise<ClusterMember[]>;
  leader(): Promise<string | undefined>;
  /**
   * SIGKILL to the leader's postmaster (the pid in its postmaster.pid), and with `everything`
   * to all its children at the same instant too (walsenders included: the machine's Postgres
   * gone at once, while its Patroni lives on); returns the leader's name.
   */
  killPrimaryPostmaster(everything?: boolean): Promise<string>;
  /**
   * SIGSTOP (true) or SIGCONT (false) to the primary's walsenders: replication stalls, as over
   * a congested link; the primary goes on acknowledging (asynchronous) or its commits wait
   * (synchronous). (Stopping the standbys' walreceivers instead shows nothing: the kernel keeps
   * receiving into their sockets, and they read it all after the kill.)
   */
  stallReplication(stalled: boolean): Promise<number>;
  /** POST /switchover on the leader's REST; resolves once Patroni answered (the switchover done or refused). */
  switchover(candidate?: string): Promise<{ status: number; body: string; from: string }>;
  /** Waits until `name` leads (and the others are streaming), or throws at the deadline. */
  waitForLeader(predicate: (leader: string) => boolean, timeoutMs: number): Promise<string>;
  waitForHealthyMembers(count: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export interface PatroniClusterOptions {
  nodes?: number;
  /** false: asynchronous replication (the deliberately unsafe mode, to show what it loses). */
  synchronous?: boolean;
  progress?: (message: string) => void;
  logPrefix?: string;
}

interface Owner {
  uid: number;
  gid: number;
}

/** The passwords of one cluster, generated per run (hex: safe in URLs, JSON and psql variables). */
interface Secrets {
  etcdRoot: string;
  etcdPatroni: string;
  superuser: string;
  replication: string;
  owner: string;
  runtime: string;
}

const generatedSecret = (): string => randomBytes(24).toString('hex');

export async function startPatroniCluster(options: PatroniClusterOptions = {}): Promise<PatroniCluster> {
  const nodeCount = options.nodes ?? 3;
  const synchronous = options.synchronous ?? true;
  const progress = options.progress ?? (() => undefined);
  const logPrefix = options.logPrefix ?? 'failover';
  assertBinaries();
  mkdirSync(LOG_DIR, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'wallet-patroni-'));
  const owner = postgresUser();
  const secrets: Secrets = {
    etcdRoot: generatedSecret(),
    etcdPatroni: generatedSecret(),
    superuser: generatedSecret(),
    replication: generatedSecret(),
    owner: generatedSecret(),
    runtime: generatedSecret(),
  };
  chmodSync(root, 0o700);
  if (owner) chownSync(root, owner.uid, owner.gid);
  const children: ChildProcess[] = [];
  const nodes: PatroniNode[] = [];
  const stoppedSenders: number[] = [];

  const stop = async (): Promise<void> => {
    for (const pid of stoppedSenders.splice(0)) signal(pid, 'SIGCONT');
    // HAProxy and the Patroni nodes (each stops its Postgres) first, etcd (children[0]) last.
    const [etcd, ...rest] = children;
    await Promise.all(rest.map((child) => stopChild(child, 15_000)));
    if (etcd) await stopChild(etcd, 5_000);
    // Any postmaster a killed Patroni left behind.
    for (const node of nodes) killPostmaster(node.dataDir, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };

  const startChild = (
    name: string,
    command: string,
    args: string[],
    runAs?: Owner,
    env?: NodeJS.ProcessEnv,
  ): ChildProcess => {
    const log = createWriteStream(join(LOG_DIR, `${logPrefix}-${name}.log`), { flags: 'w' });
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ?? process.env,
      ...(runAs ?? {}),
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('exit', () => log.end());
    children.push(child);
    return child;
  };

  try {
    // etcd
    const etcdClient = await freePort();
    const etcdPeer = await freePort();
    const etcdDir = join(root, 'etcd');
    startChild('etcd', 'etcd', [
      '--name',
      'etcd1',
      '--data-dir',
      etcdDir,
      '--listen-client-urls',
      `http://127.0.0.1:${etcdClient}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${etcdClient}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-cluster',
      `etcd1=http://127.0.0.1:${etcdPeer}`,
      '--heartbeat-interval',
      '100',
      '--election-timeout',
      '1000',
    ]);
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    await waitUntil('etcd', async () => (await httpGet(`${etcdUrl}/health`)).status === 200, {
      timeoutMs: 20_000,
      intervalMs: 200,
      retryErrors: true,
    });
    await enableEtcdAuth(etcdUrl, {
      rootPassword: secrets.etcdRoot,
      user: ETCD_PATRONI_USER,
      password: secrets.etcdPatroni,
      prefix: NAMESPACE,
    });
    progress(`etcd on 127.0.0.1:${etcdClient}, authentication on (users root and ${ETCD_PATRONI_USER})`);

    // Patroni runs the compose profile's post-bootstrap.sh as the OS user that runs Postgres:
    // a copy it can read, and a stand-in for pgBackRest (the drill archives no WAL).
    const binDir = join(root, 'bin');
    mkdirSync(binDir);
    const pgbackrestStandIn = '#!/bin/sh\necho "failover drill: no WAL archive, pgbackrest $* skipped"\n';
    writeFileSync(join(binDir, 'pgbackrest'), pgbackrestStandIn, { mode: 0o755 });
    const postBootstrap = join(root, 'post-bootstrap.sh');
    writeFileSync(postBootstrap, readFileSync(POST_BOOTSTRAP_SCRIPT), { mode: 0o755 });
    if (owner) for (const path of [binDir, postBootstrap]) chownSync(path, owner.uid, owner.gid);

    for (let index = 1; index <= nodeCount; index += 1) {
      const name = `node${index}`;
      nodes.push({
        name,
        pgPort: await freePort(),
        restPort: await freePort(),
        dataDir: join(root, name, 'data'),
        process: undefined,
      });
    }
    const startNode = (node: PatroniNode): void => {
      const nodeDir = join(root, node.name);
      mkdirSync(nodeDir, { recursive: true });
      const socketDir = join(nodeDir, 'socket');
      mkdirSync(socketDir, { recursive: true });
      if (owner) for (const dir of [nodeDir, socketDir]) chownSync(dir, owner.uid, owner.gid);
      const config = patroniConfig(node, etcdClient, nodeDir, socketDir, synchronous, secrets, postBootstrap);
      const configFile = join(nodeDir, 'patroni.yml');
      // JSON is YAML.
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      if (owner) chownSync(configFile, owner.uid, owner.gid);
      node.process = startChild(node.name, 'patroni', [configFile], owner, {
        ...process.env,
        HOME: nodeDir,
        PATRONI_LOG_LEVEL: 'INFO',
        // post-bootstrap.sh's environment, as in the compose profile.
        PATH: [binDir, POSTGRES_15_BIN, process.env.PATH ?? '/usr/bin:/bin'].join(':'),
        POSTGRES_PASSWORD: secrets.owner,
        APP_DB_PASSWORD: secrets.runtime,
      });
    };

    // The first node bootstraps (initdb); the others copy it (pg_basebackup) once it leads.
    startNode(nodes[0] as PatroniNode);
    await waitUntil(
      'node1 to bootstrap and lead',
      async () => {
        return (await httpGet(`http://127.0.0.1:${(nodes[0] as PatroniNode).restPort}/primary`)).status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 200, retryErrors: true },
    );
    progress('node1 bootstrapped and leads');
    for (const node of nodes.slice(1)) startNode(node);

    const members = async (): Promise<ClusterMember[]> => {
      for (const node of nodes) {
        const reply = await httpGet(`http://127.0.0.1:${node.restPort}/cluster`).catch(() => undefined);
        if (reply?.status === 200) return (JSON.parse(reply.body) as { members: ClusterMember[] }).members;
      }
      return [];
    };
    const leader = async (): Promise<string | undefined> =>
      (await members()).find((member) => member.role === 'leader' && member.state === 'running')?.name;
    const waitForHealthyMembers = async (count: number, timeoutMs: number): Promise<void> => {
      await waitUntil(
        `${count} running members with a leader${synchronous ? ' and a sync standby' : ''}`,
        async () => {
          const current = await members();
          const running = current.filter((member) => member.state === 'running' || member.state === 'streaming');
          const hasLeader = current.some((member) => member.role === 'leader' && member.state === 'running');
          const hasSync = current.some((member) => member.role === 'sync_standby');
          return running.length >= count && hasLeader && (!synchronous || hasSync);
        },
        { timeoutMs, intervalMs: 200, retryErrors: true },
      );
    };
    await waitForHealthyMembers(nodeCount, 120_000);
    progress(`${nodeCount} Patroni nodes running: ${JSON.stringify(await members())}`);

    // HAProxy: the app's one host.
    const primaryPort = await freePort();
    const replicaPort = await freePort();
    const haproxyConfig = join(root, 'haproxy.cfg');
    writeFileSync(haproxyConfig, haproxyConfiguration(nodes, primaryPort, replicaPort));
    const check = spawnSync('haproxy', ['-c', '-q', '-f', haproxyConfig], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`haproxy -c failed:\n${check.stdout}\n${check.stderr}`);
    startChild('haproxy', 'haproxy', ['-db', '-f', haproxyConfig]);
    const url = (user: string, password: string, port: number, database = DATABASE): string =>
      `postgres://${user}:${password}@127.0.0.1:${port}/${database}`;
    const primaryOwnerUrl = url(OWNER, secrets.owner, primaryPort);
    await waitUntil(
      'HAProxy to route to the primary',
      async () =>
        withClient(url('postgres', secrets.superuser, primaryPort, 'postgres'), async (client) => {
          const { rows } = await client.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering');
          return rows[0]?.recovering === false;
        }).catch(() => false),
      { timeoutMs: 30_000, intervalMs: 200, retryErrors: true },
    );
    progress(`HAProxy: primary on 127.0.0.1:${primaryPort}, replicas on 127.0.0.1:${replicaPort}`);

    // The database and the roles are post-bootstrap.sh's; the owner migrates.
    const primaryUrl = url(RUNTIME_LOGIN, secrets.runtime, primaryPort);
    await migrateDatabase(primaryOwnerUrl, installation, { runtimeUrl: primaryUrl });
    progress(`database migrated through HAProxy as ${OWNER}`);

    const restOf = (name: string): number => {
      const node = nodes.find((candidate) => candidate.name === name);
      if (!node) throw new Error(`no node ${name}`);
      return node.restPort;
    };

    return {
      primaryUrl,
      primaryOwnerUrl,
      replicaUrl: url(RUNTIME_LOGIN, secrets.runtime, replicaPort),
      primaryPort,
      replicaPort,
      scope: SCOPE,
      etcd: { url: etcdUrl, prefix: NAMESPACE, patroni: { user: ETCD_PATRONI_USER, password: secrets.etcdPatroni } },
      nodes,
      members,
      leader,
      killPrimaryPostmaster: async (everything = false) => {
        const name = await leader();
        const node = nodes.find((candidate) => candidate.name === name);
        if (!node) throw new Error('no leader to kill');
        if (!killPostmaster(node.dataDir, 'SIGKILL', everything)) throw new Error(`${node.name}: no postmaster.pid`);
        return node.name;
      },
      stallReplication: async (stalled) => {
        const leaderName = stalled ? await leader() : undefined;
        if (!stalled) {
          // The very processes stopped before, whoever leads now.
          const resumed = stoppedSenders.splice(0).filter((pid) => signal(pid, 'SIGCONT'));
          return resumed.length;
        }
        const primary = nodes.find((candidate) => candidate.name === leaderName);
        const postmaster = primary && postmasterPid(primary.dataDir);
        if (postmaster !== undefined)
          for (const pid of childPids(postmaster, 'walsender')) if (signal(pid, 'SIGSTOP')) stoppedSenders.push(pid);
        return stoppedSenders.length;
      },
      switchover: async (candidate) => {
        const from = await leader();
        if (!from) throw new Error('no leader to switch over from');
        const reply = await httpPost(
          `http://127.0.0.1:${restOf(from)}/switchover`,
          JSON.stringify(candidate ? { leader: from, candidate } : { leader: from }),
        );
        return { ...reply, from };
      },
      waitForLeader: async (predicate, timeoutMs) => {
        let found = '';
        await waitUntil(
          'a leader',
          async () => {
            const name = await leader();
            if (name && predicate(name)) found = name;
            return found !== '';
          },
          { timeoutMs, intervalMs: 200, retryErrors: true },
        );
        return found;
      },
      waitForHealthyMembers,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function patroniConfig(
  node: PatroniNode,
  etcdPort: number,
  nodeDir: string,
  socketDir: string,
  synchronous: boolean,
  secrets: Secrets,
  postBootstrap: string,
): Record<string, unknown> {
  return {
    scope: SCOPE,
    namespace: NAMESPACE,
    name: node.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    etcd3: { hosts: [`127.0.0.1:${etcdPort}`], username: ETCD_PATRONI_USER, password: secrets.etcdPatroni },
    watchdog: { mode: 'off' },
    bootstrap: {
      dcs: {
        ttl: PATRONI_TIMING.ttl,
        loop_wait: PATRONI_TIMING.loop_wait,
        retry_timeout: PATRONI_TIMING.retry_timeout,
        primary_start_timeout: PATRONI_TIMING.primary_start_timeout,
        // A standby further behind than this is never promoted (async mode only: in sync mode
        // only the synchronous standby is a candidate).
        maximum_lag_on_failover: 1_048_576,
        synchronous_mode: synchronous,
        // Strict: with no synchronous standby at all, commits wait instead of silently
        // degrading to asynchronous; degrading is the on-call's decision (patronictl edit-config).
        // With two standbys, one of them down costs nothing: Patroni names the other.
        synchronous_mode_strict: synchronous,
        synchronous_node_count: 1,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: NODE_PARAMETERS,
        },
      },
      // No trust line from initdb: its pg_hba.conf comes before anything Patroni adds.
      initdb: [
        { encoding: 'UTF8' },
        { locale: 'C.UTF-8' },
        // Code point order compared bytewise (decision 0026; Postgres 15 has no builtin provider).
        { 'lc-collate': 'C' },
        'data-checksums',
        { 'auth-local': 'peer' },
        { 'auth-host': 'scram-sha-256' },
      ],
      post_bootstrap: `/bin/sh ${postBootstrap}`,
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: POSTGRES_15_BIN,
      pgpass: join(nodeDir, 'pgpass'),
      // A new replica's pg_basebackup asks for an immediate checkpoint, not a spread one
      // (after post-bootstrap.sh's CREATE DATABASE that one takes a minute and a half).
      basebackup: [{ checkpoint: 'fast' }],
      authentication: {
        superuser: { username: 'postgres', password: secrets.superuser },
        replication: { username: 'replicator', password: secrets.replication },
        rewind: { username: 'postgres', password: secrets.superuser },
      },
      // The whole pg_hba.conf, written by Patroni on every start of every node (deploy/patroni/patroni.yml's, on loopback).
      pg_hba: PG_HBA,
      parameters: { unix_socket_directories: socketDir, password_encryption: 'scram-sha-256' },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

/** Every node's pg_hba.conf: passwords (SCRAM) over TCP, peer on the socket, no trust. */
export const PG_HBA = [
  'local all all peer',
  'host replication replicator 127.0.0.1/32 scram-sha-256',
  'host all all 127.0.0.1/32 scram-sha-256',
];

/**
 * Turns on etcd's client authentication through its JSON gateway (no etcdctl needed): a `root`
 * user with the root role (etcd requires it before `auth enable`), and `user` with a role of the
 * same name that may read and write the keys under `prefix` and nothing else. Afterwards every
 * request needs a token from /v3/auth/authenticate: without one etcd answers "user name is
 * empty". The compose profile does the same with curl (deploy/patroni/entrypoint.sh etcd-auth).
 */
export async function enableEtcdAuth(
  url: string,
  options: { rootPassword: string; user: string; password: string; prefix: string },
): Promise<void> {
  const call = async (path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${url}/v3/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    if (!response.ok || text.includes('"error"')) throw new Error(`etcd ${path}: ${response.status} ${text}`);
  };
  const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
  // The end of the prefix range: the prefix with its last byte incremented ("/wallet/" -> "/wallet0").
  const prefix = Buffer.from(options.prefix, 'utf8');
  const rangeEnd = Buffer.from(prefix);
  rangeEnd[rangeEnd.length - 1] = (rangeEnd[rangeEnd.length - 1] ?? 0) + 1;
  await call('auth/user/add', { name: 'root', password: options.rootPassword });
  await call('auth/role/add', { name: 'root' });
  await call('auth/user/grant', { user: 'root', role: 'root' });
  await call('auth/role/add', { name: options.user });
  await call('auth/role/grant', {
    name: options.user,
    perm: { permType: 'READWRITE', key: prefix.toString('base64'), range_end: rangeEnd.toString('base64') },
  });
  await call('auth/user/add', { name: options.user, password: options.password });
  await call('auth/user/grant', { user: options.user, role: options.user });
  await call('auth/enable', {});
  // Enabled: an anonymous read is refused.
  const probe = await fetch(`${url}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: base64(options.prefix) }),
    signal: AbortSignal.timeout(5_000),
  });
  const refusal = await probe.text();
  if (!/user name is empty|permission denied/.test(refusal))
    throw new Error(`etcd authentication is not enforced: ${probe.status} ${refusal}`);
}

function haproxyConfiguration(nodes: readonly PatroniNode[], primaryPort: number, replicaPort: number): string {
  const servers = nodes
    .map((node) => `  server ${node.name} 127.0.0.1:${node.pgPort} maxconn 200 check port ${node.restPort}`)
    .join('\n');
  return `global
  maxconn 2000

defaults
  mode tcp
  retries 2
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s

# Writes: the node whose Patroni says it is the primary. A node marked down has its sessions
# cut (on-marked-down shutdown-sessions): a demoted primary keeps no writers.
listen primary
  bind 127.0.0.1:${primaryPort}
  option httpchk GET /primary
  http-check expect status 200
  default-server ${HAPROXY_CHECK} on-marked-down shutdown-sessions
${servers}

# Reads (READ_DATABASE_URL): any streaming replica, round robin.
listen replicas
  bind 127.0.0.1:${replicaPort}
  balance roundrobin
  option httpchk GET /replica
  http-check expect status 200
  default-server ${HAPROXY_CHECK} on-marked-down shutdown-sessions
${servers}
`;
}

function assertBinaries(): void {
  for (const binary of [join(POSTGRES_15_BIN, 'postgres'), '/usr/bin/patroni', '/usr/bin/etcd', '/usr/sbin/haproxy'])
    if (spawnSync('test', ['-x', binary]).status !== 0)
      throw new Error(
        `${binary} is missing: the failover drill needs Debian's postgresql-15, patroni, etcd-server and haproxy (apt-get install -y postgresql-15 patroni etcd-server haproxy)`,
      );
}

/** The OS user that runs Patroni and Postgres when we are root; undefined: run as ourselves. */
function postgresUser(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root needs a `postgres` OS user to run Postgres');
  return { uid, gid };
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The children of `parent`, those whose process title contains `title` when given. */
function childPids(parent: number, title?: string): number[] {
  const args = title === undefined ? ['-P', String(parent)] : ['-P', String(parent), '-f', title];
  return spawnSync('pgrep', args, { encoding: 'utf8' })
    .stdout.split('\n')
    .map(Number)
    .filter((child) => Number.isInteger(child) && child > 0);
}

/** Signals the postmaster named in the data directory's postmaster.pid (and its children); false when there is none. */
function killPostmaster(dataDir: string, signal: NodeJS.Signals, children = false): boolean {
  const pid = postmasterPid(dataDir);
  if (pid === undefined) return false;
  const pids = children ? [pid, ...childPids(pid)] : [pid];
  let signalled = false;
  for (const target of pids) {
    try {
      process.kill(target, signal);
      signalled = true;
    } catch {
      // Gone already.
    }
  }
  return signalled;
}

async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function httpGet(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  return { status: response.status, body: await response.text() };
}

async function httpPost(url: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: await response.text() };
}
