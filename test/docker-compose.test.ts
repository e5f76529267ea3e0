/**
 * docker-compose.yml and .env.example, checked offline (no Docker engine here): production
 * mode everywhere, no secret with a default (regression: the JWT secret had a public one,
 * and the worker had none at all, so its mail-seal key differed from the API's), the same
 * secrets in API and worker, healthchecks, restart policies and start order by health, and
 * an .env.example whose placeholders the production check refuses.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { PRIVATE_NETWORKS, trustProxyOption } from '../api/trusted-proxies.ts';
import { loadConfig } from '../platform/config.ts';
import { productionProblems } from '../platform/production.ts';
import {
  COMPOSE_FILE,
  ENV_EXAMPLE_FILE,
  containerEnvironment,
  editedDotEnv,
  readComposeFile,
  readEnvFile,
  service,
  variableReferences,
  MissingMandatoryVariable,
} from './compose.ts';
import { PROMETHEUS_CONFIG } from './monitoring.ts';

const compose = readComposeFile();
const composeText = readFileSync(COMPOSE_FILE, 'utf8');
const envExample = readEnvFile(ENV_EXAMPLE_FILE);

const APP_SERVICES = ['api', 'worker'] as const;
/** Where customers pay deposits: the app's defaults are a local demo's account, refused in production. */
const COLLECTION_VARIABLES = [
  'COLLECTION_ACCOUNT_NAME',
  'COLLECTION_ACCOUNT_NUMBER',
  'COLLECTION_IFSC',
  'COLLECTION_UPI_ID',
];
const LONG_RUNNING = ['postgres', 'api', 'worker'] as const;
const REQUIRED = [
  'POSTGRES_PASSWORD',
  'APP_DB_PASSWORD',
  'JWT_SECRET',
  'PIN_PEPPER',
  'PUBLIC_URL',
  'SMTP_URL',
  ...COLLECTION_VARIABLES,
];
/** Secret-looking names; ALLOW_* are switches, not secrets. */
const SECRET_NAME = /^(?!ALLOW_).*(SECRET|PASSWORD|PEPPER|TOKEN|KEY)/;

const problemsOf = (name: 'api' | 'worker', dotEnv: Record<string, string>) =>
  productionProblems(loadConfig(containerEnvironment(compose, name, dotEnv)), name);

describe('docker-compose.yml', () => {
  it('gives no secret a usable default: required ones stop compose with ${VAR:?...}, optional ones default to empty', () => {
    const references = variableReferences(composeText);
    for (const name of REQUIRED) {
      const uses = references.filter((reference) => reference.name === name);
      expect(uses.length, name).toBeGreaterThan(0);
      for (const use of uses) expect(use.operator, `${name} must be \${${name}:?...}`).toBe(':?');
    }
    for (const reference of references.filter((candidate) => SECRET_NAME.test(candidate.name))) {
      expect(
        ['', ':?', '?'].includes(reference.operator) || reference.argument === '',
        `${reference.name} has the default "${reference.argument}"`,
      ).toBe(true);
    }
    expect(composeText).not.toContain('change-me-to-a-long-random-secret-of-32-chars');
  });

  it('gives the API and the worker the same JWT_SECRET, PIN_PEPPER and database, in production mode', () => {
    for (const name of APP_SERVICES) {
      const environment = service(compose, name).environment ?? {};
      expect(environment.JWT_SECRET, name).toMatch(/^\$\{JWT_SECRET:\?/);
      expect(environment.PIN_PEPPER, name).toMatch(/^\$\{PIN_PEPPER:\?/);
      expect(environment.NODE_ENV, name).toBe('production');
    }
    const dotEnv = editedDotEnv();
    const api = containerEnvironment(compose, 'api', dotEnv);
    const worker = containerEnvironment(compose, 'worker', dotEnv);
    for (const key of ['JWT_SECRET', 'PIN_PEPPER', 'DATABASE_URL', 'PUBLIC_URL'])
      expect(worker[key], key).toBe(api[key]);
    expect(service(compose, 'migrate').environment?.NODE_ENV).toBe('production');
  });

  it('stops before starting anything when a required secret is missing, naming it', () => {
    for (const name of REQUIRED) {
      const dotEnv: Record<string, string | undefined> = { ...editedDotEnv(), [name]: undefined };
      const attempt = () => LONG_RUNNING.forEach((serviceName) => containerEnvironment(compose, serviceName, dotEnv));
      expect(attempt, name).toThrow(MissingMandatoryVariable);
      expect(attempt, name).toThrow(new RegExp(`^${name}: set ${name} in \\.env`));
    }
  });

  it('connects the API and workers as the runtime role and migrates as the owner', () => {
    const dotEnv = editedDotEnv();
    const migrate = containerEnvironment(compose, 'migrate', dotEnv);
    expect(new URL(migrate.DATABASE_URL ?? '').username).toBe('wallet_app');
    expect(new URL(migrate.DATABASE_OWNER_URL ?? '').username).toBe('wallet_owner');
    expect(decodeURIComponent(new URL(migrate.DATABASE_OWNER_URL ?? '').password)).toBe(dotEnv.POSTGRES_PASSWORD);
    for (const name of APP_SERVICES) {
      const environment = containerEnvironment(compose, name, dotEnv);
      expect(environment.DATABASE_URL, name).toBe(migrate.DATABASE_URL);
      expect(environment, name).not.toHaveProperty('DATABASE_OWNER_URL');
    }
    expect(service(compose, 'postgres').environment?.POSTGRES_USER).toBe('wallet_owner');
    expect(service(compose, 'migrate').restart).toBe('no');
    expect(service(compose, 'migrate').command).toEqual(['node', 'bin/migrate.ts']);
  });

  it('gives every long-running service a healthcheck and a restart policy', () => {
    for (const name of LONG_RUNNING) {
      const { healthcheck, restart } = service(compose, name);
      expect(restart, name).toBe('unless-stopped');
      expect(healthcheck?.test, name).toBeDefined();
      expect(healthcheck?.interval, name).toBeDefined();
      expect(healthcheck?.retries, name).toBeGreaterThan(0);
    }
    expect(service(compose, 'postgres').healthcheck?.test).toEqual([
      'CMD-SHELL',
      'pg_isready -U wallet_owner -d wallet',
    ]);
    // The image has no curl: Node's fetch probes the API's readiness route and the worker's on its health port.
    expect(JSON.stringify(service(compose, 'api').healthcheck?.test)).toContain(
      "'http://127.0.0.1:3000/api/health/ready'",
    );
    expect(JSON.stringify(service(compose, 'worker').healthcheck?.test)).toContain(
      "'http://127.0.0.1:3001/health/ready'",
    );
    expect(service(compose, 'worker').environment?.WORKER_HEALTH_PORT).toBe('3001');
  });

  it('starts the API and workers only once Postgres is healthy and the migration succeeded', () => {
    expect(service(compose, 'migrate').depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of APP_SERVICES) {
      expect(service(compose, name).depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('publishes ports on loopback only, and runs the mail catcher only under its profile', () => {
    for (const [name, definition] of Object.entries(compose.services)) {
      for (const port of definition.ports ?? []) {
        const published = containerEnvironmentPort(port);
        expect(published, `${name} publishes ${port}`).toMatch(/^127\.0\.0\.1:/);
      }
    }
    expect(service(compose, 'postgres').ports).toBeUndefined();
    expect(service(compose, 'mailcatcher').profiles).toEqual(['mailcatcher']);
    expect(service(compose, 'prometheus').profiles).toEqual(['monitoring']);
    for (const name of LONG_RUNNING) expect(service(compose, name).profiles, name).toBeUndefined();
  });

  it('runs Prometheus (monitoring profile) on deploy/ with the token the API and the worker check', () => {
    const prometheus = service(compose, 'prometheus') as ReturnType<typeof service> & {
      volumes?: string[];
      secrets?: { source: string; target: string }[];
    };
    expect(prometheus.volumes).toEqual(
      expect.arrayContaining([
        './deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './deploy/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
    // deploy/prometheus.yml reads `credentials_file: metrics_token` relative to itself.
    expect(prometheus.secrets).toEqual([{ source: 'metrics_token', target: '/etc/prometheus/metrics_token' }]);
    expect(readFileSync(PROMETHEUS_CONFIG, 'utf8')).toContain('credentials_file: metrics_token');
    expect((compose as { secrets?: unknown }).secrets).toEqual({ metrics_token: { environment: 'METRICS_TOKEN' } });
    const dotEnv = { ...editedDotEnv(), METRICS_TOKEN: 'a-metrics-token-0123456789abcdef' };
    for (const name of APP_SERVICES)
      expect(containerEnvironment(compose, name, dotEnv).METRICS_TOKEN, name).toBe(dotEnv.METRICS_TOKEN);
  });

  it("gives every service that runs the API the collection account of .env (regression: production showed the demo's)", () => {
    const dotEnv = editedDotEnv();
    const apiServices = Object.entries(compose.services)
      .filter(([, definition]) => definition.command?.includes('bin/server.ts'))
      .map(([name]) => name);
    expect(apiServices).toEqual(['api', 'api-scaled', 'api-ha']);
    for (const name of apiServices) {
      const environment = containerEnvironment(compose, name, dotEnv);
      for (const variable of COLLECTION_VARIABLES)
        expect(environment[variable], `${name} ${variable}`).toBe(dotEnv[variable]);
    }
  });

  it('starts in production mode once .env is edited as .env.example says (the sandbox only when chosen)', () => {
    expect(problemsOf('api', editedDotEnv())).toEqual([]);
    expect(problemsOf('worker', editedDotEnv())).toEqual([]);
    const sandbox = { ...editedDotEnv(), STRIPE_SECRET_KEY: '' };
    expect(problemsOf('api', sandbox).map((problem) => problem.split(' ')[0])).toEqual(['CARD_PROVIDER']);
    expect(problemsOf('api', { ...sandbox, CARD_PROVIDER: 'sandbox' })).toEqual([]);
  });
});

describe('docker-compose.yml, the scale profile (README, "Running at scale")', () => {
  const SCALE_SERVICES = ['replica', 'pgbouncer', 'api-scaled', 'worker-scaled', 'balancer'] as const;
  const SCALED_APPS = [
    ['api-scaled', 'api'],
    ['worker-scaled', 'worker'],
  ] as const;
  const hostOf = (url: string | undefined) => {
    const parsed = new URL(url ?? '');
    return `${parsed.username}@${parsed.hostname}:${parsed.port}${parsed.pathname}`;
  };

  it('runs the replica, PgBouncer, the scaled APIs and workers and the balancer only under the profile, restarting and health-checked', () => {
    for (const name of SCALE_SERVICES) {
      const { profiles, restart, healthcheck } = service(compose, name);
      expect(profiles, name).toEqual(['scale']);
      expect(restart, name).toBe('unless-stopped');
      expect(healthcheck?.test, name).toBeDefined();
    }
  });

  it('sends commands through PgBouncer, LISTEN straight to the primary and reads to the replica, as the runtime role', () => {
    const dotEnv = editedDotEnv();
    for (const [name, single] of SCALED_APPS) {
      const scaled = containerEnvironment(compose, name, dotEnv);
      const plain = containerEnvironment(compose, single, dotEnv);
      expect(hostOf(scaled.DATABASE_URL), name).toBe('wallet_app@pgbouncer:6432/wallet');
      expect(hostOf(scaled.LISTEN_DATABASE_URL), name).toBe('wallet_app@postgres:5432/wallet');
      expect(hostOf(scaled.READ_DATABASE_URL), name).toBe('wallet_app@replica:5432/wallet');
      for (const url of [scaled.DATABASE_URL, scaled.LISTEN_DATABASE_URL, scaled.READ_DATABASE_URL])
        expect(decodeURIComponent(new URL(url ?? '').password), name).toBe(dotEnv.APP_DB_PASSWORD);
      expect(scaled, name).not.toHaveProperty('DATABASE_OWNER_URL');
      for (const key of ['NODE_ENV', 'JWT_SECRET', 'PIN_PEPPER', 'PUBLIC_URL', 'METRICS_TOKEN'])
        expect(scaled[key], `${name} ${key}`).toBe(plain[key]);
      const config = loadConfig(scaled);
      expect(productionProblems(config, single), name).toEqual([]);
      expect(config.LISTEN_DATABASE_URL, name).toBe(scaled.LISTEN_DATABASE_URL);
      expect(config.READ_DATABASE_URL, name).toEqual([scaled.READ_DATABASE_URL]);
      expect(service(compose, name).depends_on, name).toMatchObject({
        pgbouncer: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
    expect(containerEnvironment(compose, 'api-scaled', dotEnv).RUN_WORKERS).toBe('false');
    expect(service(compose, 'api-scaled').depends_on).toMatchObject({ replica: { condition: 'service_healthy' } });
  });

  it('pools in transaction mode in front of the primary, and makes the replica by a base backup of it', () => {
    const ini = readFileSync(new URL('../deploy/pgbouncer/pgbouncer.ini', import.meta.url), 'utf8');
    expect(ini).toMatch(/^pool_mode = transaction$/m);
    expect(ini).toMatch(/^wallet = host=postgres port=5432 dbname=wallet$/m);
    const replica = readFileSync(new URL('../deploy/postgres/replica-entrypoint.sh', import.meta.url), 'utf8');
    expect(replica).toMatch(/pg_basebackup -h postgres -p 5432 -U replicator -D "\$PGDATA" -R/);
    const primary = service(compose, 'postgres') as ReturnType<typeof service> & { volumes?: string[] };
    expect(primary.volumes).toContain(
      './deploy/postgres/primary-replication.sh:/docker-entrypoint-initdb.d/primary-replication.sh:ro',
    );
    // The replication password is optional for the single-server stack, so it has no default either.
    expect(service(compose, 'postgres').environment?.REPLICATION_PASSWORD).toBe('${REPLICATION_PASSWORD:-}');
  });
});

/**
 * Regression: `api` was given neither TRUST_PROXY_HOPS nor TRUST_PROXY_ADDRESSES and `api-scaled`
 * had one hop hard-coded, so behind the TLS proxy the compose file tells deployers to put in
 * front, every client had the proxy's address: one client's 10 bad sign-ins locked sign-in for
 * everyone. Each service that runs the API now takes both from .env; the client address is
 * computed here the way the API computes it (Fastify's trustProxy from api/trusted-proxies.ts),
 * on the addresses a compose network gives (Docker's default pools are private ranges).
 */
describe('docker-compose.yml, the client address behind proxies (rate-limit keys)', () => {
  const API_SERVICES = Object.entries(compose.services)
    .filter(([, definition]) => definition.command?.includes('bin/server.ts'))
    .map(([name]) => name);
  const CLIENT = '203.0.113.7';
  const OTHER_CLIENT = '198.51.100.23';
  /** The host's TLS proxy reaches a published loopback port through Docker's proxy: the network's gateway. */
  const GATEWAY = '172.18.0.1';
  const BALANCER = '172.18.0.9';

  /** request.ip as the API would see it, with the trust settings the service's container starts with. */
  async function clientAddress(
    name: string,
    dotEnv: Record<string, string>,
    peer: string,
    forwardedFor?: string,
  ): Promise<string> {
    const config = loadConfig(containerEnvironment(compose, name, dotEnv));
    const app = Fastify({
      trustProxy: trustProxyOption({ hops: config.TRUST_PROXY_HOPS, addresses: config.TRUST_PROXY_ADDRESSES }),
    });
    app.get('/', (request) => ({ ip: request.ip }));
    try {
      const reply = await app.inject({
        url: '/',
        remoteAddress: peer,
        ...(forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } }),
      });
      return (reply.json() as { ip: string }).ip;
    } finally {
      await app.close();
    }
  }

  it('gives every service that runs the API both variables from .env, with no hop count hard-coded', () => {
    expect(API_SERVICES).toEqual(['api', 'api-scaled', 'api-ha']);
    for (const name of API_SERVICES) {
      const environment = service(compose, name).environment ?? {};
      expect(String(environment.TRUST_PROXY_HOPS), `${name} TRUST_PROXY_HOPS`).toMatch(/^\$\{TRUST_PROXY_HOPS:-\d*\}$/);
      expect(String(environment.TRUST_PROXY_ADDRESSES), `${name} TRUST_PROXY_ADDRESSES`).toMatch(
        /^\$\{TRUST_PROXY_ADDRESSES:-[^}]*\}$/,
      );
    }
  });

  it('defaults to no proxy for api, the balancer alone for api-scaled, proxies on private networks only', () => {
    const dotEnv = editedDotEnv();
    const api = loadConfig(containerEnvironment(compose, 'api', dotEnv));
    const scaled = loadConfig(containerEnvironment(compose, 'api-scaled', dotEnv));
    expect(api.TRUST_PROXY_HOPS).toBe(0);
    expect(scaled.TRUST_PROXY_HOPS).toBe(1);
    for (const config of [api, scaled]) expect(config.TRUST_PROXY_ADDRESSES).toEqual(PRIVATE_NETWORKS);
    const chosen = { ...dotEnv, TRUST_PROXY_HOPS: '2', TRUST_PROXY_ADDRESSES: '10.1.0.0/16, 172.18.0.0/16' };
    for (const name of API_SERVICES) {
      const config = loadConfig(containerEnvironment(compose, name, chosen));
      expect(config.TRUST_PROXY_HOPS, name).toBe(2);
      expect(config.TRUST_PROXY_ADDRESSES, name).toEqual(['10.1.0.0/16', '172.18.0.0/16']);
    }
  });

  it('api: a client connecting directly is itself, its forged X-Forwarded-For ignored; behind a TLS proxy with TRUST_PROXY_HOPS=1 each client is its own', async () => {
    const dotEnv = editedDotEnv();
    expect(await clientAddress('api', dotEnv, CLIENT, '10.9.9.9')).toBe(CLIENT);
    const behindProxy = { ...dotEnv, TRUST_PROXY_HOPS: '1' };
    expect(await clientAddress('api', behindProxy, GATEWAY, CLIENT)).toBe(CLIENT);
    expect(await clientAddress('api', behindProxy, GATEWAY, OTHER_CLIENT)).toBe(OTHER_CLIENT);
    expect(await clientAddress('api', behindProxy, GATEWAY, `6.6.6.6, ${CLIENT}`)).toBe(CLIENT);
  });

  it('api-scaled: the balancer alone by default; with a TLS proxy in front of it and TRUST_PROXY_HOPS=2 each client is its own, not the proxy', async () => {
    const dotEnv = editedDotEnv();
    expect(await clientAddress('api-scaled', dotEnv, BALANCER, CLIENT)).toBe(CLIENT);
    expect(await clientAddress('api-scaled', dotEnv, BALANCER, `6.6.6.6, ${CLIENT}`)).toBe(CLIENT);
    const tlsProxy = { ...dotEnv, TRUST_PROXY_HOPS: '2' };
    expect(await clientAddress('api-scaled', tlsProxy, BALANCER, `${CLIENT}, ${GATEWAY}`)).toBe(CLIENT);
    expect(await clientAddress('api-scaled', tlsProxy, BALANCER, `${OTHER_CLIENT}, ${GATEWAY}`)).toBe(OTHER_CLIENT);
    // A client's own X-Forwarded-For entry sits further back and is never read.
    expect(await clientAddress('api-scaled', tlsProxy, BALANCER, `6.6.6.6, ${CLIENT}, ${GATEWAY}`)).toBe(CLIENT);
  });
});

describe('.env.example', () => {
  it('lists every variable docker-compose.yml requires', () => {
    const required = new Set(
      variableReferences(composeText)
        .filter((reference) => reference.operator === ':?')
        .map((reference) => reference.name),
    );
    for (const name of required) expect(Object.keys(envExample), name).toContain(name);
  });

  it('documents the trusted proxies of every service that runs the API', () => {
    const text = readFileSync(ENV_EXAMPLE_FILE, 'utf8');
    expect(text).toMatch(/^# TRUST_PROXY_HOPS=/m);
    expect(text).toMatch(/^# TRUST_PROXY_ADDRESSES=/m);
  });

  it('says how to generate each secret', () => {
    const text = readFileSync(ENV_EXAMPLE_FILE, 'utf8');
    expect(text.match(/openssl rand -base64 48/g)?.length).toBeGreaterThanOrEqual(2);
    expect(text.match(/openssl rand -hex 32/g)?.length).toBeGreaterThanOrEqual(1);
  });

  it('copied without editing, is refused at startup, naming every secret still to set', () => {
    const variableOf = (problem: string) => /^\w+/.exec(problem)?.[0];
    const api = problemsOf('api', envExample).map(variableOf);
    const worker = problemsOf('worker', envExample).map(variableOf);
    expect(api).toEqual([
      'DATABASE_URL',
      'CARD_PROVIDER',
      'COLLECTION_ACCOUNT_NUMBER',
      'JWT_SECRET',
      'PIN_PEPPER',
      'ADMIN_PASSWORD',
    ]);
    expect(worker).toEqual(['DATABASE_URL', 'SMTP_URL', 'JWT_SECRET', 'PIN_PEPPER']);
  });
});

/** "127.0.0.1:3000:3000" -> "127.0.0.1:3000"; the published side, with compose's ${...:-default} applied. */
function containerEnvironmentPort(port: string): string {
  const resolved = port.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}/g, '$1');
  return resolved.slice(0, resolved.lastIndexOf(':'));
}
