/**
 * The compose `ha` profile, checked offline (no Docker engine here): etcd, three Patroni nodes
 * (deploy/patroni/) in strict synchronous replication archiving WAL with pgBackRest into a shared
 * repository volume, HAProxy (deploy/haproxy/haproxy.cfg) routing by Patroni's REST /primary and
 * /replica, and an API, a worker and a migration that reach the database only through HAProxy.
 * The settings are the failover drill's (reliability/patroni-cluster.ts); Debian's haproxy, when
 * installed, checks the configuration itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../platform/config.ts';
import { productionProblems } from '../platform/production.ts';
import { PATRONI_TIMING } from '../reliability/patroni-cluster.ts';
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

const compose = readComposeFile();
const composeText = readFileSync(COMPOSE_FILE, 'utf8');
const deployFile = (path: string) => new URL(`../deploy/${path}`, import.meta.url);
const patroniYaml = readFileSync(deployFile('patroni/patroni.yml'), 'utf8');
const haproxyCfg = readFileSync(deployFile('haproxy/haproxy.cfg'), 'utf8');
const HAPROXY = '/usr/sbin/haproxy';

const NODES = ['patroni1', 'patroni2', 'patroni3'] as const;
const HA_SERVICES = ['etcd', ...NODES, 'haproxy', 'migrate-ha', 'api-ha', 'worker-ha'] as const;
const HA_APPS = [
  ['api-ha', 'api'],
  ['worker-ha', 'worker'],
] as const;
const HA_SECRETS = ['PATRONI_SUPERUSER_PASSWORD', 'PATRONI_REPLICATION_PASSWORD', 'PATRONI_REST_PASSWORD'] as const;
const SECRET_NAME = /^(?!ALLOW_).*(SECRET|PASSWORD|PEPPER|TOKEN|KEY)/;
const REQUIRED = ['POSTGRES_PASSWORD', 'APP_DB_PASSWORD', 'JWT_SECRET', 'PIN_PEPPER', 'SMTP_URL'];

type WithVolumes = ComposeService & { volumes?: string[]; build?: unknown };

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
  };
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
      if (name === 'migrate-ha') {
        expect(restart).toBe('no');
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
    expect(String(api.TRUST_PROXY_HOPS)).toMatch(/^\$\{TRUST_PROXY_HOPS:-\d+\}$/);
    expect(String(api.TRUST_PROXY_ADDRESSES)).toMatch(/^\$\{TRUST_PROXY_ADDRESSES:-[^}]+\}$/);
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
      for (const node of NODES) {
        expect(() => containerEnvironment(compose, node, dotEnv), `${node} ${secret}`).toThrow(
          MissingMandatoryVariable,
        );
        expect(() => containerEnvironment(compose, node, dotEnv), `${node} ${secret}`).toThrow(
          new RegExp(`^${secret}: set ${secret} in \\.env`),
        );
      }
    }
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
      expect(service(compose, name).depends_on).toEqual({ etcd: { condition: 'service_healthy' } });
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

  it.skipIf(!existsSync(HAPROXY))("passes Debian's haproxy -c (service names replaced by 127.0.0.1)", () => {
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

  it('lists the profile passwords in .env.example with placeholders the Patroni nodes refuse', () => {
    const example = readEnvFile(ENV_EXAMPLE_FILE);
    for (const secret of HA_SECRETS) expect(example[secret], secret).toMatch(/^change-me-/);
    const entrypoint = new URL('../deploy/patroni/entrypoint.sh', import.meta.url).pathname;
    const dotEnv = haDotEnv();
    const run = (env: Record<string, string>) =>
      spawnSync('/bin/sh', [entrypoint], { encoding: 'utf8', env: { PATH: '/nonexistent', ...env } });
    const nodeEnv = containerEnvironment(compose, 'patroni1', { ...dotEnv, ...example });
    const refused = run(nodeEnv);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^PATRONI_SUPERUSER_PASSWORD: set it in \.env/);
    // Real values pass the check and reach `exec patroni` (not installed on this PATH: 127).
    const accepted = run(containerEnvironment(compose, 'patroni1', dotEnv));
    expect(accepted.status).toBe(127);
  });
});
