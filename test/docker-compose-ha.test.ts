/**
 * The compose `ha` profile, checked offline (no Docker engine here): etcd with client
 * authentication (turned on by the one-shot etcd-auth), three Patroni nodes (deploy/patroni/) in
 * strict synchronous replication archiving WAL with pgBackRest into a shared repository volume,
 * HAProxy (deploy/haproxy/haproxy.cfg) routing by Patroni's REST /primary and /replica, and an
 * API, a worker and a migration that reach the database only through HAProxy, on a network
 * without etcd and the nodes. The settings are the failover drill's
 * (reliability/patroni-cluster.ts); Debian's haproxy, patroni and etcd, when installed, check
 * the configuration, Patroni's reading of it and the etcd-auth script themselves.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../platform/config.ts';
import { freePort } from '../platform/embedded-postgres.ts';
import { productionProblems } from '../platform/production.ts';
import { RUNTIME_ROLE } from '../platform/runtime-role.ts';
import { PATRONI_TIMING, PG_HBA } from '../reliability/patroni-cluster.ts';
import {
  COMPOSE_FILE,
  ENV_EXAMPLE_FILE,
  MissingMandatoryVariable,
  containerEnvironment,
  editedDotEnv,
  readComposeFile,
  readEnvFile,
  service,
  variableReferences,
  type ComposeService,
} from './compose.ts';
import { waitUntil } from './wait.ts';

const compose = readComposeFile();
const composeText = readFileSync(COMPOSE_FILE, 'utf8');
const deployFile = (path: string) => new URL(`../deploy/${path}`, import.meta.url);
const patroniYaml = readFileSync(deployFile('patroni/patroni.yml'), 'utf8');
const haproxyCfg = readFileSync(deployFile('haproxy/haproxy.cfg'), 'utf8');
const postBootstrap = readFileSync(deployFile('patroni/post-bootstrap.sh'), 'utf8');
const ENTRYPOINT = new URL('../deploy/patroni/entrypoint.sh', import.meta.url).pathname;
const HAPROXY = '/usr/sbin/haproxy';
const ETCD = '/usr/bin/etcd';

const NODES = ['patroni1', 'patroni2', 'patroni3'] as const;
const ONE_SHOTS = ['etcd-auth', 'migrate-ha'];
const HA_SERVICES = ['etcd', 'etcd-auth', ...NODES, 'haproxy', 'migrate-ha', 'api-ha', 'worker-ha'] as const;
/** On the cluster network only: etcd, its set-up, the nodes (Postgres and Patroni's REST). */
const CLUSTER_SIDE = ['etcd', 'etcd-auth', ...NODES] as const;
const HA_APPS = [
  ['api-ha', 'api'],
  ['worker-ha', 'worker'],
] as const;
const HA_SECRETS = [
  'PATRONI_SUPERUSER_PASSWORD',
  'PATRONI_REPLICATION_PASSWORD',
  'PATRONI_REST_PASSWORD',
  'ETCD_ROOT_PASSWORD',
  'ETCD_PATRONI_PASSWORD',
] as const;
const SECRET_NAME = /^(?!ALLOW_).*(SECRET|PASSWORD|PEPPER|TOKEN|KEY)/;
const REQUIRED = ['POSTGRES_PASSWORD', 'APP_DB_PASSWORD', 'JWT_SECRET', 'PIN_PEPPER', 'SMTP_URL'];

type WithVolumes = ComposeService & { volumes?: string[]; build?: unknown };
type WithNetworks = ComposeService & { networks?: string[] | Record<string, unknown> };

/** The networks a service joins (compose puts one without `networks` on `default`). */
function networksOf(name: string): string[] {
  const { networks } = service(compose, name) as WithNetworks;
  if (networks === undefined) return ['default'];
  return Array.isArray(networks) ? networks : Object.keys(networks);
}

/** Every `${...}` reference in the raw values of a service's environment. */
function referencesOf(name: string) {
  return Object.values(service(compose, name).environment ?? {}).flatMap((value) =>
    variableReferences(String(value ?? '')),
  );
}

/** A dotEnv with the .env.example placeholders of the ha passwords replaced. */
function haDotEnv(): Record<string, string> {
  return {
    ...editedDotEnv(),
    PATRONI_SUPERUSER_PASSWORD: 'a1'.repeat(32),
    PATRONI_REPLICATION_PASSWORD: 'b2'.repeat(32),
    PATRONI_REST_PASSWORD: 'c3'.repeat(32),
    ETCD_ROOT_PASSWORD: 'd4'.repeat(32),
    ETCD_PATRONI_PASSWORD: 'e5'.repeat(32),
  };
}

/** What a script in deploy/patroni/ prints and exits with, run with `env` only. */
function runScript(path: string, args: string[], env: Record<string, string>) {
  return spawnSync('/bin/sh', [path, ...args], { encoding: 'utf8', env });
}

/** `listen <name>` / `frontend <name>` sections of haproxy.cfg: their lines, trimmed, comments dropped. */
function haproxySections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const raw of text.split('\n')) {
    const hash = raw.indexOf('#');
    const line = (hash === -1 ? raw : raw.slice(0, hash)).trimEnd();
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      current = [];
      sections.set(line.trim(), current);
    } else current?.push(line.trim());
  }
  return sections;
}

describe('docker-compose.yml, the ha profile (README, "Running at scale")', () => {
  it('runs etcd, three Patroni nodes, HAProxy, the migration, an API and a worker only under the profile', () => {
    for (const name of HA_SERVICES) {
      const { profiles, restart, healthcheck } = service(compose, name);
      expect(profiles, name).toEqual(['ha']);
      if (ONE_SHOTS.includes(name)) {
        expect(restart, name).toBe('no');
        continue;
      }
      expect(restart, name).toBe('unless-stopped');
      expect(healthcheck?.test, name).toBeDefined();
    }
    for (const [name, definition] of Object.entries(compose.services))
      if (!(HA_SERVICES as readonly string[]).includes(name))
        expect(definition.profiles ?? [], name).not.toContain('ha');
    expect(composeText).toMatch(/production runs three etcd members/i);
  });

  it('points every app service at HAProxy: writes and LISTEN at its primary port, reads at its replica port', () => {
    const dotEnv = haDotEnv();
    const where = (url: string | undefined) => {
      const parsed = new URL(url ?? '');
      return `${parsed.username}@${parsed.hostname}:${parsed.port}${parsed.pathname}`;
    };
    for (const [name, single] of HA_APPS) {
      const environment = containerEnvironment(compose, name, dotEnv);
      const plain = containerEnvironment(compose, single, dotEnv);
      expect(where(environment.DATABASE_URL), name).toBe('wallet_app@haproxy:5000/wallet');
      expect(where(environment.LISTEN_DATABASE_URL), name).toBe('wallet_app@haproxy:5000/wallet');
      expect(where(environment.READ_DATABASE_URL), name).toBe('wallet_app@haproxy:5001/wallet');
      for (const [key, value] of Object.entries(environment))
        if (/^postgres(ql)?:\/\//.test(value)) expect(new URL(value).hostname, `${name} ${key}`).toBe('haproxy');
      expect(environment, name).not.toHaveProperty('DATABASE_OWNER_URL');
      for (const key of ['NODE_ENV', 'JWT_SECRET', 'PIN_PEPPER', 'PUBLIC_URL', 'METRICS_TOKEN'])
        expect(environment[key], `${name} ${key}`).toBe(plain[key]);
      expect(environment.NODE_ENV, name).toBe('production');
      const config = loadConfig(environment);
      expect(productionProblems(config, single), name).toEqual([]);
      expect(config.READ_DATABASE_URL, name).toEqual([environment.READ_DATABASE_URL]);
      expect(service(compose, name).depends_on, name).toEqual({
        haproxy: { condition: 'service_healthy' },
        'migrate-ha': { condition: 'service_completed_successfully' },
      });
    }
    const migrate = containerEnvironment(compose, 'migrate-ha', dotEnv);
    expect(where(migrate.DATABASE_URL)).toBe('wallet_app@haproxy:5000/wallet');
    expect(where(migrate.DATABASE_OWNER_URL)).toBe('wallet_owner@haproxy:5000/wallet');
    expect(decodeURIComponent(new URL(migrate.DATABASE_OWNER_URL ?? '').password)).toBe(dotEnv.POSTGRES_PASSWORD);
    expect(service(compose, 'migrate-ha').depends_on).toEqual({ haproxy: { condition: 'service_healthy' } });
    expect(containerEnvironment(compose, 'api-ha', dotEnv).RUN_WORKERS).toBe('false');
    const api = service(compose, 'api-ha').environment ?? {};
    expect(String(api.TRUST_PROXY_HOPS)).toMatch(/^\$\{TRUST_PROXY_HOPS:-\d*\}$/);
    expect(String(api.TRUST_PROXY_ADDRESSES)).toMatch(/^\$\{TRUST_PROXY_ADDRESSES:-[^}]*\}$/);
  });

  it('gives no secret of the profile a default, and stops compose naming each missing one', () => {
    const required = new Set<string>([...HA_SECRETS, ...REQUIRED]);
    for (const name of HA_SERVICES)
      for (const reference of referencesOf(name).filter((candidate) => SECRET_NAME.test(candidate.name))) {
        // Optional ones (Stripe, Google, METRICS_TOKEN, ADMIN_PASSWORD) default to empty, as in the single stack.
        if (required.has(reference.name))
          expect(reference.operator, `${name}: \${${reference.name}} must be required (:?)`).toBe(':?');
        else expect(reference.argument, `${name}: \${${reference.name}} has a default`).toBe('');
      }
    for (const secret of HA_SECRETS) {
      const dotEnv = { ...haDotEnv(), [secret]: undefined };
      const users = HA_SERVICES.filter((name) => referencesOf(name).some((reference) => reference.name === secret));
      expect(users.length, secret).toBeGreaterThan(0);
      for (const name of users) {
        expect(() => containerEnvironment(compose, name, dotEnv), `${name} ${secret}`).toThrow(
          MissingMandatoryVariable,
        );
        expect(() => containerEnvironment(compose, name, dotEnv), `${name} ${secret}`).toThrow(
          new RegExp(`^${secret}: set ${secret} in \\.env`),
        );
      }
    }
    // The Patroni nodes need all but etcd's root password, which only etcd-auth holds.
    for (const secret of HA_SECRETS.filter((name) => name !== 'ETCD_ROOT_PASSWORD'))
      for (const node of NODES)
        expect(
          referencesOf(node).map((reference) => reference.name),
          `${node} ${secret}`,
        ).toContain(secret);
    for (const name of HA_SERVICES)
      if (name !== 'etcd-auth')
        expect(
          referencesOf(name).map((reference) => reference.name),
          name,
        ).not.toContain('ETCD_ROOT_PASSWORD');
  });

  it('keeps etcd and the Patroni nodes (Postgres, REST) on a network no app joins: the apps reach Postgres only through HAProxy', () => {
    const definition = (parse(composeText) as { networks?: Record<string, unknown> }).networks ?? {};
    expect(Object.keys(definition)).toContain('ha-cluster');
    for (const name of CLUSTER_SIDE) expect(networksOf(name), name).toEqual(['ha-cluster']);
    expect(networksOf('haproxy').sort()).toEqual(['default', 'ha-cluster']);
    for (const name of ['migrate-ha', 'api-ha', 'worker-ha']) expect(networksOf(name), name).toEqual(['default']);
    // Nothing else joins it, and nothing on it publishes a port.
    for (const name of Object.keys(compose.services)) {
      if ((CLUSTER_SIDE as readonly string[]).includes(name) || name === 'haproxy') continue;
      expect(networksOf(name), name).not.toContain('ha-cluster');
    }
    for (const name of [...CLUSTER_SIDE, 'haproxy']) expect(service(compose, name).ports, name).toBeUndefined();
    // The apps name no host but HAProxy (checked above for every postgres:// URL) and no etcd or REST address.
    const dotEnv = haDotEnv();
    for (const name of ['migrate-ha', 'api-ha', 'worker-ha'])
      expect(Object.values(containerEnvironment(compose, name, dotEnv)).join('\n'), name).not.toMatch(
        /etcd|patroni\d|:2379|:8008/,
      );
  });

  it('requires a login to etcd: etcd-auth turns authentication on with .env passwords, Patroni logs in as its own user', () => {
    const dotEnv = haDotEnv();
    const auth = service(compose, 'etcd-auth') as WithVolumes;
    expect(auth.build).toBe('./deploy/patroni');
    expect(auth.command).toEqual(['etcd-auth']);
    expect(auth.depends_on).toEqual({ etcd: { condition: 'service_healthy' } });
    const authEnvironment = containerEnvironment(compose, 'etcd-auth', dotEnv);
    expect(authEnvironment.ETCD_ENDPOINT).toBe('http://etcd:2379');
    expect(authEnvironment.ETCD_ROOT_PASSWORD).toBe(dotEnv.ETCD_ROOT_PASSWORD);
    expect(authEnvironment.ETCD_PATRONI_PASSWORD).toBe(dotEnv.ETCD_PATRONI_PASSWORD);
    const config = parse(patroniYaml) as { namespace: string; etcd3: { hosts: string[]; username: string } };
    expect(config.etcd3.username).toBe('patroni');
    expect(config.namespace).toBe('/wallet/');
    expect(readFileSync(ENTRYPOINT, 'utf8')).toContain('printf %s /wallet/ | base64');
    for (const node of NODES) {
      const environment = containerEnvironment(compose, node, dotEnv);
      expect(environment.PATRONI_ETCD3_PASSWORD, node).toBe(dotEnv.ETCD_PATRONI_PASSWORD);
      // Patroni reads PATRONI_ETCD3_PASSWORD only beside another PATRONI_ETCD3_* variable.
      expect(environment.PATRONI_ETCD3_HOSTS, node).toBe(config.etcd3.hosts.join(','));
      expect(service(compose, node).depends_on, node).toEqual({
        'etcd-auth': { condition: 'service_completed_successfully' },
      });
    }
    // etcd's healthcheck logs in too: an anonymous `endpoint health` fails once authentication is on.
    const etcd = containerEnvironment(compose, 'etcd', dotEnv);
    expect(etcd.ETCDCTL_USER).toBe('patroni');
    expect(etcd.ETCDCTL_PASSWORD).toBe(dotEnv.ETCD_PATRONI_PASSWORD);
    expect(service(compose, 'etcd').healthcheck?.test).toEqual([
      'CMD',
      'etcdctl',
      '--endpoints=http://127.0.0.1:2379',
      'endpoint',
      'health',
    ]);
  });

  it("entrypoint.sh etcd-auth, against Debian's etcd: refuses anonymous reads and writes after it, confines patroni to /wallet/, runs again with a new patroni password", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-etcd-auth-'));
    const [client, peer] = [await freePort(), await freePort()];
    const endpoint = `http://127.0.0.1:${client}`;
    const etcd = spawn(
      ETCD,
      [
        '--name=e1',
        `--data-dir=${join(dir, 'data')}`,
        `--listen-client-urls=${endpoint}`,
        `--advertise-client-urls=${endpoint}`,
        `--listen-peer-urls=http://127.0.0.1:${peer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
        `--initial-cluster=e1=http://127.0.0.1:${peer}`,
      ],
      { stdio: 'ignore' },
    );
    const call = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${endpoint}/v3/${path}`, {
        method: 'POST',
        headers: token ? { authorization: token } : {},
        body: JSON.stringify(body),
      });
      return response.text();
    };
    const key = (text: string) => Buffer.from(text).toString('base64');
    const login = async (password: string) =>
      (JSON.parse(await call('auth/authenticate', { name: 'patroni', password })) as { token?: string }).token;
    try {
      await waitUntil('etcd', async () => (await fetch(`${endpoint}/health`)).ok, {
        timeoutMs: 20_000,
        retryErrors: true,
      });
      const passwords = { root: randomBytes(32).toString('hex'), patroni: randomBytes(32).toString('hex') };
      const setUp = (root: string, patroni: string) =>
        runScript(ENTRYPOINT, ['etcd-auth'], {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          ETCD_ENDPOINT: endpoint,
          ETCD_ROOT_PASSWORD: root,
          ETCD_PATRONI_PASSWORD: patroni,
        });
      const first = setUp(passwords.root, passwords.patroni);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toContain('etcd-auth: authentication on');

      expect(await call('kv/put', { key: key('/wallet/wallet/config'), value: key('{}') })).toMatch(
        /user name is empty/,
      );
      expect(await call('kv/range', { key: key('/wallet/wallet/config') })).toMatch(/user name is empty/);
      const token = await login(passwords.patroni);
      expect(token).toEqual(expect.any(String));
      expect(await call('kv/put', { key: key('/wallet/wallet/config'), value: key('{}') }, token)).not.toMatch(/error/);
      expect(await call('kv/put', { key: key('/elsewhere'), value: key('x') }, token)).toMatch(/permission denied/);
      expect(await call('auth/disable', {}, token)).toMatch(/permission denied/);

      // Again (every `up`), with a new patroni password in .env: the old one stops working.
      const rotated = randomBytes(32).toString('hex');
      const again = setUp(passwords.root, rotated);
      expect(again.status, again.stderr).toBe(0);
      expect(await login(rotated)).toEqual(expect.any(String));
      expect(await login(passwords.patroni)).toBeUndefined();
      // A root password that does not match stops it, saying so.
      const wrongRoot = setUp(randomBytes(32).toString('hex'), rotated);
      expect(wrongRoot.status).toBe(1);
      expect(wrongRoot.stderr).toMatch(/^etcd-auth: cannot log in to etcd as root/);
    } finally {
      etcd.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps no trust line: initdb with peer and scram-sha-256, and Patroni writes the whole pg_hba.conf (the drill's, on loopback)", () => {
    const config = parse(patroniYaml) as {
      bootstrap: { initdb: unknown[]; pg_hba?: string[] };
      postgresql: { pg_hba: string[]; parameters: Record<string, unknown> };
    };
    expect(config.bootstrap.initdb).toEqual(
      expect.arrayContaining([{ 'auth-local': 'peer' }, { 'auth-host': 'scram-sha-256' }]),
    );
    // bootstrap.pg_hba would only be appended after initdb's lines; postgresql.pg_hba replaces the file.
    expect(config.bootstrap.pg_hba).toBeUndefined();
    expect(config.postgresql.pg_hba.length).toBeGreaterThan(0);
    for (const line of config.postgresql.pg_hba) expect(line).toMatch(/ (peer|scram-sha-256)$/);
    expect(config.postgresql.pg_hba).toEqual(PG_HBA.map((line) => line.replace('127.0.0.1/32', 'all')));
    expect(config.postgresql.parameters.password_encryption).toBe('scram-sha-256');
  });

  it('bootstraps an owner that is no superuser and cannot create roles, and the runtime roles the migration would otherwise create', () => {
    const statements = postBootstrap
      .slice(postBootstrap.indexOf("<<'SQL'"), postBootstrap.lastIndexOf('SQL'))
      .split('\n')
      .filter((line) => /^create /.test(line));
    const owner = statements.find((line) => line.startsWith('create role wallet_owner '));
    expect(owner).toMatch(/ nosuperuser nocreaterole nocreatedb noreplication nobypassrls /);
    expect(statements).toContain('create database wallet owner wallet_owner;');
    // The names the migration looks for (platform/runtime-role.ts) and the login the apps use.
    expect(statements).toContain(`create role ${RUNTIME_ROLE} nologin;`);
    const dotEnv = haDotEnv();
    const runtimeLogin = new URL(containerEnvironment(compose, 'api-ha', dotEnv).DATABASE_URL ?? '').username;
    expect(statements).toContain(
      `create role ${runtimeLogin} with login password :'app_password' in role ${RUNTIME_ROLE};`,
    );
    expect(postBootstrap).toMatch(/-v app_password="\$APP_DB_PASSWORD"/);
    expect(postBootstrap).not.toMatch(/^create role .* superuser/m);
    for (const node of NODES)
      expect(containerEnvironment(compose, node, dotEnv).APP_DB_PASSWORD, node).toBe(dotEnv.APP_DB_PASSWORD);
  });

  it("reads, as Debian's Patroni reads it with a node's environment: etcd as patroni with its password, the superuser and replication passwords, no trust", () => {
    const dotEnv = haDotEnv();
    const environment = containerEnvironment(compose, 'patroni1', dotEnv);
    const read = spawnSync(
      '/usr/bin/python3',
      [
        '-c',
        'import json, sys\nfrom patroni.config import Config\nprint(json.dumps(Config(sys.argv[1], validator=None).copy(), default=dict))',
        deployFile('patroni/patroni.yml').pathname,
      ],
      { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', ...environment } },
    );
    expect(read.status, read.stderr).toBe(0);
    const effective = JSON.parse(read.stdout) as {
      etcd3: { hosts: string[]; username: string; password: string };
      postgresql: {
        pg_hba: string[];
        authentication: Record<string, { username: string; password: string }>;
      };
    };
    expect(effective.etcd3).toEqual({
      hosts: ['etcd:2379'],
      username: 'patroni',
      password: dotEnv.ETCD_PATRONI_PASSWORD,
    });
    expect(effective.postgresql.authentication.superuser?.password).toBe(dotEnv.PATRONI_SUPERUSER_PASSWORD);
    expect(effective.postgresql.authentication.replication?.password).toBe(dotEnv.PATRONI_REPLICATION_PASSWORD);
    expect(effective.postgresql.pg_hba.join('\n')).not.toContain('trust');
  });

  it('runs each Patroni node from deploy/patroni with its own data volume, the shared pgBackRest repository and its own addresses', () => {
    const dotEnv = haDotEnv();
    const dataVolumes = new Set<string>();
    for (const name of NODES) {
      const node = service(compose, name) as WithVolumes;
      expect(node.build, name).toBe('./deploy/patroni');
      expect(node.volumes, name).toContain('pgbackrest-repo:/var/lib/pgbackrest');
      const data = node.volumes?.find((volume) => volume.endsWith(':/var/lib/postgresql/15/patroni'));
      expect(data, name).toBe(`${name}-data:/var/lib/postgresql/15/patroni`);
      dataVolumes.add(data ?? '');
      const environment = containerEnvironment(compose, name, dotEnv);
      expect(environment.PATRONI_NAME).toBe(name);
      expect(environment.PATRONI_RESTAPI_CONNECT_ADDRESS).toBe(`${name}:8008`);
      expect(environment.PATRONI_POSTGRESQL_CONNECT_ADDRESS).toBe(`${name}:5432`);
      expect(environment.PATRONI_RESTAPI_PASSWORD).toBe(dotEnv.PATRONI_REST_PASSWORD);
    }
    expect(dataVolumes.size).toBe(3);
    const volumes = (parse(composeText) as { volumes: Record<string, unknown> }).volumes;
    for (const volume of ['etcd-data', 'patroni1-data', 'patroni2-data', 'patroni3-data', 'pgbackrest-repo'])
      expect(Object.keys(volumes)).toContain(volume);
    expect(service(compose, 'haproxy').depends_on).toEqual(
      Object.fromEntries(NODES.map((name) => [name, { condition: 'service_healthy' }])),
    );
    const dockerfile = readFileSync(deployFile('patroni/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM debian:bookworm/m);
    for (const packageName of ['postgresql-15', 'patroni', 'pgbackrest'])
      expect(dockerfile).toMatch(new RegExp(`apt-get install [^\\n]*\\b${packageName}\\b`));
    expect(dockerfile).toMatch(/^USER postgres$/m);
  });

  it('configures Patroni as the drill does: strict synchronous replication, its timing, WAL archived by pgBackRest', () => {
    const config = parse(patroniYaml) as {
      scope: string;
      restapi: { listen: string };
      etcd3: { hosts: string[] };
      bootstrap: {
        dcs: Record<string, unknown> & {
          postgresql: { parameters: Record<string, unknown>; recovery_conf: { restore_command: string } };
        };
        post_bootstrap: string;
      };
      postgresql: { data_dir: string; bin_dir: string };
    };
    const { dcs } = config.bootstrap;
    expect(dcs.synchronous_mode).toBe(true);
    expect(dcs.synchronous_mode_strict).toBe(true);
    expect(dcs.synchronous_node_count).toBe(1);
    for (const [key, value] of Object.entries(PATRONI_TIMING)) expect(dcs[key], key).toBe(value);
    const parameters = dcs.postgresql.parameters;
    expect(parameters.archive_mode).toBe('on');
    expect(parameters.archive_command).toBe('pgbackrest --stanza=wallet archive-push %p');
    expect(parameters.synchronous_commit).toBe('on');
    expect(dcs.postgresql.recovery_conf.restore_command).toBe('pgbackrest --stanza=wallet archive-get %f "%p"');
    expect(config.restapi.listen).toBe('0.0.0.0:8008');
    expect(config.etcd3.hosts).toEqual(['etcd:2379']);
    expect(config.postgresql.bin_dir).toBe('/usr/lib/postgresql/15/bin');
    expect(config.bootstrap.post_bootstrap).toBe('/usr/local/bin/post-bootstrap.sh');
    const pgbackrest = readFileSync(deployFile('patroni/pgbackrest.conf'), 'utf8');
    expect(pgbackrest).toMatch(/^\[wallet\]$/m);
    expect(pgbackrest).toMatch(/^repo1-path=\/var\/lib\/pgbackrest$/m);
    expect(pgbackrest).toMatch(/^repo1-retention-full=2$/m);
    expect(pgbackrest).toContain(`pg1-path=${config.postgresql.data_dir}`);
  });

  it('routes HAProxy by Patroni REST: /primary on port 5000, /replica on 5001, cutting the sessions of a node marked down', () => {
    const sections = haproxySections(haproxyCfg);
    for (const [section, port, path] of [
      ['listen primary', 5000, '/primary'],
      ['listen replicas', 5001, '/replica'],
    ] as const) {
      const lines = sections.get(section);
      expect(lines, section).toBeDefined();
      expect(lines, section).toContain(`bind :${port}`);
      expect(lines, section).toContain(`option httpchk GET ${path}`);
      expect(lines, section).toContain('http-check expect status 200');
      expect(
        lines?.find((line) => line.startsWith('default-server')),
        section,
      ).toContain('on-marked-down shutdown-sessions');
      const servers = lines?.filter((line) => line.startsWith('server ')) ?? [];
      expect(servers, section).toEqual(
        NODES.map((name) => expect.stringMatching(new RegExp(`^server ${name} ${name}:5432 .*\\bcheck port 8008\\b`))),
      );
    }
    expect(sections.get('frontend health')).toEqual(
      expect.arrayContaining(['bind :8404', 'monitor-uri /health', 'monitor fail if { nbsrv(primary) lt 1 }']),
    );
    const haproxy = service(compose, 'haproxy') as WithVolumes;
    expect(haproxy.volumes).toContain('./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(JSON.stringify(haproxy.healthcheck?.test)).toContain('/dev/tcp/127.0.0.1/8404');
  });

  it("passes Debian's haproxy -c (service names replaced by 127.0.0.1)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-haproxy-'));
    try {
      const copy = join(dir, 'haproxy.cfg');
      writeFileSync(copy, haproxyCfg.replace(/\bpatroni[123]:/g, '127.0.0.1:'));
      const check = spawnSync(HAPROXY, ['-c', '-f', copy], { encoding: 'utf8' });
      expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists the profile passwords in .env.example with placeholders the Patroni nodes and etcd-auth refuse', () => {
    const example = readEnvFile(ENV_EXAMPLE_FILE);
    for (const secret of HA_SECRETS) expect(example[secret], secret).toMatch(/^change-me-/);
    const dotEnv = haDotEnv();
    const run = (env: Record<string, string>, args: string[] = []) =>
      runScript(ENTRYPOINT, args, { PATH: '/nonexistent', ...env });
    const authRefused = run(containerEnvironment(compose, 'etcd-auth', { ...dotEnv, ...example }), ['etcd-auth']);
    expect(authRefused.status).toBe(1);
    expect(authRefused.stderr).toMatch(/^ETCD_ROOT_PASSWORD: set it in \.env/);
    const patroniPasswordRefused = run(
      containerEnvironment(compose, 'etcd-auth', { ...dotEnv, ETCD_PATRONI_PASSWORD: example.ETCD_PATRONI_PASSWORD }),
      ['etcd-auth'],
    );
    expect(patroniPasswordRefused.stderr).toMatch(/^ETCD_PATRONI_PASSWORD: set it in \.env/);
    const etcdPasswordRefused = run(
      containerEnvironment(compose, 'patroni1', { ...dotEnv, ETCD_PATRONI_PASSWORD: example.ETCD_PATRONI_PASSWORD }),
    );
    expect(etcdPasswordRefused.stderr).toMatch(/^PATRONI_ETCD3_PASSWORD: set it in \.env/);
    const nodeEnv = containerEnvironment(compose, 'patroni1', { ...dotEnv, ...example });
    const refused = run(nodeEnv);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^PATRONI_SUPERUSER_PASSWORD: set it in \.env/);
    // Real values pass the check and reach `exec patroni` (not installed on this PATH: 127).
    const accepted = run(containerEnvironment(compose, 'patroni1', dotEnv));
    expect(accepted.status).toBe(127);
  });
});
