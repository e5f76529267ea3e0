/**
 * A Patroni-managed PostgreSQL 15 cluster on loopback ports, for the failover drill: one etcd
 * (Patroni's store: who leads, who is the synchronous standby), two or three Patroni nodes
 * running Debian's PostgreSQL 15 as the `postgres` OS user (Postgres refuses root), and HAProxy
 * routing one port to whichever node Patroni's REST `/primary` says leads and another to the
 * nodes `/replica` says follow. The app takes one host (node-postgres has no multi-host
 * failover), so DATABASE_URL is HAProxy's primary port and READ_DATABASE_URL its replica port.
 *
 * The database is bootstrapped by Patroni (initdb with checksums, trust on 127.0.0.1 only: a
 * throwaway drill cluster), then created and migrated through HAProxy's primary port as the app
 * migrates. `stop()` kills everything it started and removes its directory; logs stay in
 * test-output/reliability/.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
import { withClient } from '../platform/database.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { migrateDatabase } from '../platform/migrate.ts';
import { allQueues } from '../runtime/queues.ts';
import { TEST_RUNTIME_LOGIN, withLogin } from '../test/logins.ts';
import { LOG_DIR } from './processes.ts';
import { waitUntil } from '../test/wait.ts';

export const POSTGRES_15_BIN = '/usr/lib/postgresql/15/bin';
const DATABASE = 'wallet';
const SCOPE = 'wallet-drill';

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
  /** HAProxy's primary port, as the runtime login (DATABASE_URL). */
  primaryUrl: string;
  /** The same port as the owner (the superuser that migrated the database). */
  primaryOwnerUrl: string;
  /** HAProxy's replica port, as the runtime login (READ_DATABASE_URL). */
  replicaUrl: string;
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

export async function startPatroniCluster(options: PatroniClusterOptions = {}): Promise<PatroniCluster> {
  const nodeCount = options.nodes ?? 3;
  const synchronous = options.synchronous ?? true;
  const progress = options.progress ?? (() => undefined);
  const logPrefix = options.logPrefix ?? 'failover';
  assertBinaries();
  mkdirSync(LOG_DIR, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'wallet-patroni-'));
  const owner = postgresUser();
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
    await waitUntil('etcd', async () => (await httpGet(`http://127.0.0.1:${etcdClient}/health`)).status === 200, {
      timeoutMs: 20_000,
      intervalMs: 200,
      retryErrors: true,
    });
    progress(`etcd on 127.0.0.1:${etcdClient}`);

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
      const config = patroniConfig(node, etcdClient, nodeDir, socketDir, synchronous);
      const configFile = join(nodeDir, 'patroni.yml');
      // JSON is YAML.
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      if (owner) chownSync(configFile, owner.uid, owner.gid);
      node.process = startChild(node.name, 'patroni', [configFile], owner, {
        ...process.env,
        HOME: nodeDir,
        PATRONI_LOG_LEVEL: 'INFO',
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
    const primaryOwnerUrl = `postgres://postgres@127.0.0.1:${primaryPort}/${DATABASE}`;
    await waitUntil(
      'HAProxy to route to the primary',
      async () =>
        withClient(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, async (client) => {
          const { rows } = await client.query<{ recovering: boolean }>('select pg_is_in_recovery() as recovering');
          return rows[0]?.recovering === false;
        }).catch(() => false),
      { timeoutMs: 30_000, intervalMs: 200, retryErrors: true },
    );
    progress(`HAProxy: primary on 127.0.0.1:${primaryPort}, replicas on 127.0.0.1:${replicaPort}`);

    await withClient(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, (client) =>
      client.query(`create database ${DATABASE}`),
    );
    const primaryUrl = withLogin(primaryOwnerUrl, TEST_RUNTIME_LOGIN);
    await migrateDatabase(primaryOwnerUrl, allQueues, { runtimeUrl: primaryUrl, resetRuntimePassword: true });
    progress('database created and migrated through HAProxy');

    const restOf = (name: string): number => {
      const node = nodes.find((candidate) => candidate.name === name);
      if (!node) throw new Error(`no node ${name}`);
      return node.restPort;
    };

    return {
      primaryUrl,
      primaryOwnerUrl,
      replicaUrl: withLogin(`postgres://postgres@127.0.0.1:${replicaPort}/${DATABASE}`, TEST_RUNTIME_LOGIN),
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
): Record<string, unknown> {
  return {
    scope: SCOPE,
    namespace: '/wallet/',
    name: node.name,
    log: { level: 'INFO' },
    restapi: { listen: `127.0.0.1:${node.restPort}`, connect_address: `127.0.0.1:${node.restPort}` },
    etcd3: { hosts: [`127.0.0.1:${etcdPort}`] },
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
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'data-checksums'],
      pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'],
    },
    postgresql: {
      listen: `127.0.0.1:${node.pgPort}`,
      connect_address: `127.0.0.1:${node.pgPort}`,
      data_dir: node.dataDir,
      bin_dir: POSTGRES_15_BIN,
      pgpass: join(nodeDir, 'pgpass'),
      authentication: {
        superuser: { username: 'postgres' },
        replication: { username: 'postgres' },
        rewind: { username: 'postgres' },
      },
      parameters: { unix_socket_directories: socketDir },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
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
