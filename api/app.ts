/**
 * buildApp: the HTTP adapter. Builds a Fastify instance from its dependencies and never
 * listens (runtime/api-process.ts does); tests drive it with inject() or a real listener.
 */
import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import {
  countCustomers,
  deriveKey,
  findAccount,
  pinKeysFrom,
  systemClock,
  type BalanceReader,
  type Clock,
  type PinKeys,
} from '../identity/index.ts';
import { createSandboxCardProvider, type CardSetup } from '../providers/card/index.ts';
import {
  createReadRouter,
  readInstanceFigures,
  readWalletBalance,
  waitForCheckpoint,
  type CatchUpOptions,
  type CheckpointWaiter,
  type ReadRouter,
} from '../projections/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { COLLECTION_DEFAULTS, CONFIG_DEFAULTS, type Config } from '../platform/config.ts';
import type { CollectionAccount } from '../contracts/deposit-instructions.ts';
import type { JobBoss } from '../platform/jobs.ts';
import { createLogger, serializeRequestForLog, type LogLevel, type Logger } from '../platform/logger.ts';
import { installAuth } from './auth/authenticate.ts';
import { installRateLimit, notFoundRateLimit, type RateLimitSettings } from './auth/rate-limit.ts';
import { frameworkErrorEnvelope, installEnvelope, installNotFoundEnvelope } from './envelope.ts';
import { installDocs } from './docs.ts';
import { createMetricsRegistry, type MetricsRegistry } from '../platform/metrics.ts';
import { createApiMetrics, installMetrics, instrumentLedger, type ApiMetrics } from './metrics.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerConfigRoutes } from './routes/config.ts';
import { registerStatsRoutes } from './routes/stats.ts';
import { installSecurityHeaders } from './security-headers.ts';
import { trustProxyOption, type TrustedProxies } from './trusted-proxies.ts';
import { registerOAuthRoutes, type GoogleSignInConfig } from './routes/oauth.ts';
import { registerUserRoutes } from './routes/users.ts';
import { registerCardWebhook } from './routes/card-webhook.ts';
import { registerRequestRoutes } from './routes/requests.ts';
import { registerStatementRoutes } from './routes/statements.ts';
import { registerTransactionDetailRoutes } from './routes/transaction-detail.ts';
import { registerTransactionRoutes } from './routes/transactions.ts';
import { registerPayeeRoutes } from './routes/payees.ts';
import { registerAdminRoutes, registerDepositReviewRoutes } from './routes/admin/index.ts';
import { registerWebApp } from './web-app.ts';
import type { MoneyDependencies } from './money-context.ts';
import { createLiveHub, type LiveHub } from './live/hub.ts';
import { registerEventRoutes } from './routes/events.ts';
import { installReadAfterReply, READS_CATCH_UP, type ReadAfterReplyObserver } from './read-after-reply.ts';
import { installRequestIdHeader, requestIdGenerator } from './request-id.ts';

export interface AppConfig {
  publicUrl: string;
  /** Origins allowed to call the API from a browser with credentials (exact match). */
  corsOrigins: readonly string[];
  /** LOG_LEVEL, for the logger made here when the process gives none. */
  logLevel: LogLevel;
  /** Signs session tokens; the OTP pepper and the mail seal key derive from it. */
  jwtSecret: string;
  /** PIN_PEPPER: keys the PIN verifiers (its own secret, never derived from jwtSecret). */
  pinPepper: string;
  rateLimit: RateLimitSettings;
  /** Undefined: Google sign-in is not configured (its routes redirect with oauth_failed). */
  google?: GoogleSignInConfig | undefined;
  /** Given to the web app so it can mount Stripe Elements; absent with the sandbox provider. */
  stripePublishableKey?: string | undefined;
  /**
   * How long a read waits for its projection to reach the caller's checkpoint. Each optional
   * setting absent here takes its setting's default (platform/config-groups.ts, CONFIG_DEFAULTS).
   */
  readYourWritesTimeoutMs?: number;
  /**
   * How long a command's reply waits for every projection to apply the command (reads after
   * the reply are then consistent for everyone); 0: no wait.
   */
  readAfterReplyTimeoutMs?: number;
  /** The built web app (web/dist) to serve, if any. */
  webDistDir?: string | undefined;
  /** METRICS_TOKEN: a bearer token that may scrape /metrics from off the host (or through a proxy). */
  metricsToken?: string | undefined;
  /** An admin's settlement or reversal above this amount waits for a second admin. */
  adminApprovalThresholdPaise?: bigint | undefined;
  /** TRUST_PROXY_HOPS / TRUST_PROXY_ADDRESSES: the reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies?: TrustedProxies | undefined;
  /** READY_MAX_PROJECTION_LAG_SECONDS: /api/health/ready fails past this projection lag. */
  readyMaxProjectionLagSeconds?: number;
  /** READ_REPLICA_MAX_WAIT_MS: how long a read waits for a replica to catch up before it reads the primary. */
  readReplicaMaxWaitMs?: number;
  /** API_DOCS: serve /api/docs (Swagger UI and the OpenAPI document); default on (off in production by config). */
  apiDocs?: boolean;
  /** COLLECTION_*: where bank-transfer and UPI deposits are paid; absent: the local demo's account. */
  collectionAccount?: CollectionAccount | undefined;
}

export interface AppDependencies {
  config: AppConfig;
  db: Kysely<unknown>;
  /** The pool behind `db`: read-your-writes waits LISTEN on one of its connections... */
  pool: pg.Pool;
  /** ...unless a shared waiter (one listening connection for all requests) is given. */
  checkpoints?: Pick<CheckpointWaiter, 'wait'>;
  boss: JobBoss;
  ledger: Ledger;
  /** The card provider; the offline sandbox when absent. */
  card?: CardSetup;
  /**
   * READ_DATABASE_URL's replicas, opened by the process (which closes them): the read tables'
   * queries go there when caught up (projections/engine/replica-reads.ts). None: the primary.
   */
  replicas?: readonly Kysely<unknown>[];
  /** Wallet balances (paise) for the user record; absent: the read model's, through the replicas. */
  balances?: BalanceReader;
  /** Code expiry, resend waits, PIN lockouts. Defaults to the system clock. */
  clock?: Clock;
  /** Told how long each command's reply waited for its projections (besides the metrics). */
  readAfterReply?: ReadAfterReplyObserver;
  /** The process's metrics registry (runtime/metrics.ts); a fresh one when absent (tests). */
  metrics?: MetricsRegistry;
  /** The process's logger (service `api`); absent: one is made at `config.logLevel`. */
  log?: Logger;
  /**
   * Live updates (GET /api/users/events): the process's checkpoint waiter feeds them. Absent:
   * the route answers 503 (tests without projection workers).
   */
  live?: LiveSettings;
}

export interface LiveSettings {
  feed: Pick<CheckpointWaiter, 'onAdvance'>;
  /** Streams one user may hold open in this process (default 5). */
  maxStreamsPerUser?: number;
  /** Between heartbeat comments, at which each stream's session is re-checked (default 15 s). */
  heartbeatMs?: number;
  /** How often admins' streams get the projections' status (tests shorten it). */
  projectionsPushMs?: number;
}

/** The AppConfig of the process configuration (runtime/api-process.ts). */
export function appConfigFrom(config: Config, secrets: { jwtSecret: string; pinPepper: string }): AppConfig {
  const google =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? {
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          authorizeUrl: config.GOOGLE_AUTHORIZE_URL,
          tokenUrl: config.GOOGLE_TOKEN_URL,
          userinfoUrl: config.GOOGLE_USERINFO_URL,
          callbackUrl:
            config.GOOGLE_CALLBACK_URL ?? `${config.PUBLIC_URL.replace(/(?<!\/)\/+$/, '')}/auth/google/callback`,
        }
      : undefined;
  return {
    publicUrl: config.PUBLIC_URL,
    corsOrigins: config.CORS_ORIGINS,
    logLevel: config.LOG_LEVEL,
    jwtSecret: secrets.jwtSecret,
    pinPepper: secrets.pinPepper,
    rateLimit: {
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      max: config.RATE_LIMIT_MAX,
      authMax: config.RATE_LIMIT_AUTH_MAX,
      readMax: config.RATE_LIMIT_READ_MAX,
    },
    google,
    stripePublishableKey: config.STRIPE_SECRET_KEY ? config.STRIPE_PUBLISHABLE_KEY : undefined,
    readYourWritesTimeoutMs: config.READ_YOUR_WRITES_TIMEOUT_MS,
    readAfterReplyTimeoutMs: config.READ_AFTER_REPLY_TIMEOUT_MS,
    metricsToken: config.METRICS_TOKEN,
    adminApprovalThresholdPaise: config.ADMIN_APPROVAL_THRESHOLD,
    trustedProxies: { hops: config.TRUST_PROXY_HOPS, addresses: config.TRUST_PROXY_ADDRESSES },
    readyMaxProjectionLagSeconds: config.READY_MAX_PROJECTION_LAG_SECONDS,
    readReplicaMaxWaitMs: config.READ_REPLICA_MAX_WAIT_MS,
    apiDocs: config.API_DOCS,
    collectionAccount: {
      accountName: config.COLLECTION_ACCOUNT_NAME,
      accountNumber: config.COLLECTION_ACCOUNT_NUMBER,
      ifsc: config.COLLECTION_IFSC,
      upiId: config.COLLECTION_UPI_ID,
    },
  };
}

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { app, processLog } = createServer(deps);
  const metrics = createApiMetrics(deps.metrics ?? createMetricsRegistry(), deps.db);
  await installGuards(app, deps, metrics);
  const wiring = wire(deps, metrics, processLog);
  registerConfigRoutes(app, {
    googleSignIn: deps.config.google !== undefined,
    cardProvider: wiring.card.provider.name,
    ...(wiring.card.provider.name === 'stripe' && deps.config.stripePublishableKey
      ? { stripePublishableKey: deps.config.stripePublishableKey }
      : {}),
  });
  registerStatsRoutes(app, {
    readFigures: () => wiring.reads.read('accounts', readInstanceFigures),
    countCustomers: () => countCustomers(deps.db),
    clock: wiring.clock,
  });
  installReadAfterReply(app, {
    checkpoints: wiring.checkpoints,
    timeoutMs: deps.config.readAfterReplyTimeoutMs ?? CONFIG_DEFAULTS.READ_AFTER_REPLY_TIMEOUT_MS,
    observer: bothObservers(metrics.readAfterReply, deps.readAfterReply),
  });
  await registerSignInRoutes(app, deps, wiring);
  await registerMoneyRoutes(app, deps, wiring);
  registerHealthRoutes(app, {
    db: deps.db,
    maxProjectionLagSeconds:
      deps.config.readyMaxProjectionLagSeconds ?? CONFIG_DEFAULTS.READY_MAX_PROJECTION_LAG_SECONDS,
    metricsToken: deps.config.metricsToken,
    behindProxy: isBehindProxy(deps.config),
    clock: wiring.clock,
  });

  if (deps.config.webDistDir) await registerWebApp(app, { distDir: deps.config.webDistDir });
  return app;
}

/** What the routes share, made once from the dependencies and the configuration's defaults. */
interface AppWiring {
  /** The counted ledger: appends and refusals feed /metrics. */
  ledger: Ledger;
  card: CardSetup;
  pinKeys: PinKeys;
  checkpoints: Pick<CheckpointWaiter, 'wait'>;
  reads: ReadRouter;
  balances: BalanceReader;
  clock: Clock;
  readYourWritesTimeoutMs: number;
}

function isBehindProxy(config: AppConfig): boolean {
  return (config.trustedProxies?.hops ?? 0) > 0;
}

/** The Fastify instance with its logger, request ids, the reply envelope and the JSON parser. */
function createServer(deps: AppDependencies): { app: FastifyInstance; processLog: Logger } {
  // The process's pino (platform/logger.ts: its redaction paths cover authorization and cookies,
  // and a request is logged by its path, never its query: a given logger gets that serializer
  // here too), typed as Fastify's base logger so the instance keeps the type every route expects.
  const processLog = deps.log ?? createLogger('api', { level: deps.config.logLevel });
  const log: FastifyBaseLogger = processLog.child({}, { serializers: { req: serializeRequestForLog } });
  const app = Fastify({
    loggerInstance: log,
    genReqId: requestIdGenerator(deps.config.trustedProxies),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(deps.config.trustedProxies),
    frameworkErrors: frameworkErrorEnvelope,
  });
  installRequestIdHeader(app);
  installEnvelope(app);
  installJsonParser(app);
  return { app, processLog };
}

/** What every request passes before its route: headers, docs, metrics, CORS, auth, rate limits, 404s. */
async function installGuards(app: FastifyInstance, deps: AppDependencies, metrics: ApiMetrics): Promise<void> {
  // Before any route: its hook runs first, so replies refused later (429, 404) carry the headers too.
  await installSecurityHeaders(app, { publicUrl: deps.config.publicUrl });
  await installDocs(app, { publicUrl: deps.config.publicUrl, serve: deps.config.apiDocs ?? true });
  installMetrics(app, { metrics, token: deps.config.metricsToken, behindProxy: isBehindProxy(deps.config) });
  await app.register(cors, {
    origin: (origin, callback) =>
      callback(null, origin !== undefined && deps.config.corsOrigins.includes(origin) ? origin : false),
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
    // Not a CORS-safelisted header: without this a client on another origin cannot read when to retry a 429 or 503.
    exposedHeaders: ['retry-after'],
  });
  await installAuth(app, { db: deps.db, jwtSecret: deps.config.jwtSecret });
  await installRateLimit(app, { settings: deps.config.rateLimit, db: deps.db });
  installNotFoundEnvelope(app, { preHandler: notFoundRateLimit(app) });
}

/** The ledger, readers and waits the routes share, each default of the configuration applied once. */
function wire(deps: AppDependencies, metrics: ApiMetrics, processLog: Logger): AppWiring {
  const checkpoints = deps.checkpoints ?? {
    wait: (projection, token, timeoutMs) => waitForCheckpoint(deps.pool, projection, token, timeoutMs),
  };
  const readYourWritesTimeoutMs = deps.config.readYourWritesTimeoutMs ?? CONFIG_DEFAULTS.READ_YOUR_WRITES_TIMEOUT_MS;
  const reads = readRouter(deps, metrics, processLog, {
    projections: READS_CATCH_UP,
    wait: (projection, token) => checkpoints.wait(projection, token, readYourWritesTimeoutMs),
  });
  return {
    ledger: instrumentLedger(deps.ledger, metrics),
    card: deps.card ?? { provider: createSandboxCardProvider(), webhookSecret: null },
    pinKeys: pinKeysFrom(deps.config.pinPepper),
    checkpoints,
    reads,
    balances: deps.balances ?? {
      ofAccount: (accountId: string) => reads.read('accounts', (tables) => readWalletBalance(tables, accountId)),
    },
    clock: deps.clock ?? systemClock,
    readYourWritesTimeoutMs,
  };
}

/** Registration, sign-in (password, one-time codes, Google) and the user's own account. */
async function registerSignInRoutes(app: FastifyInstance, deps: AppDependencies, wiring: AppWiring): Promise<void> {
  registerUserRoutes(app, {
    db: deps.db,
    boss: deps.boss,
    ledger: wiring.ledger,
    balances: wiring.balances,
    clock: wiring.clock,
    publicUrl: deps.config.publicUrl,
    rateLimit: deps.config.rateLimit,
    keys: {
      otpPepper: deriveKey(deps.config.jwtSecret, 'otp-pepper'),
      sealKey: deriveKey(deps.config.jwtSecret, 'mail-seal'),
      pinKeys: wiring.pinKeys,
    },
    awaitBalances: (checkpoint) => wiring.checkpoints.wait('accounts', checkpoint, wiring.readYourWritesTimeoutMs),
  });
  await registerOAuthRoutes(app, {
    db: deps.db,
    ledger: wiring.ledger,
    webUrl: deps.config.publicUrl,
    google: deps.config.google,
    rateLimit: deps.config.rateLimit,
  });
}

/** Payments, deposits, requests, statements, live updates and the admins' money routes. */
async function registerMoneyRoutes(app: FastifyInstance, deps: AppDependencies, wiring: AppWiring): Promise<void> {
  const approvalThresholdPaise = deps.config.adminApprovalThresholdPaise ?? CONFIG_DEFAULTS.ADMIN_APPROVAL_THRESHOLD;
  const money: MoneyDependencies = {
    approvalThresholdPaise,
    pinKeys: wiring.pinKeys,
    db: deps.db,
    reads: wiring.reads,
    checkpoints: wiring.checkpoints,
    ledger: wiring.ledger,
    clock: wiring.clock,
    card: wiring.card,
    readYourWritesTimeoutMs: wiring.readYourWritesTimeoutMs,
    rateLimit: deps.config.rateLimit,
    collection: deps.config.collectionAccount ?? COLLECTION_DEFAULTS,
  };
  await registerTransactionRoutes(app, money);
  // The admins' settle/fail, at their /api/transactions paths: registered where they always were.
  registerDepositReviewRoutes(app, money);
  registerPayeeRoutes(app, money);
  await registerRequestRoutes(app, money);
  registerStatementRoutes(app, money);
  registerTransactionDetailRoutes(app, money);
  await registerCardWebhook(app, money);
  registerEventRoutes(app, deps.live ? liveHub(app, deps, deps.live) : undefined);
  await registerAdminRoutes(app, {
    db: deps.db,
    ledger: wiring.ledger,
    boss: deps.boss,
    approvalThresholdPaise,
    awaitStatements: (checkpoint) => wiring.checkpoints.wait('accounts', checkpoint, wiring.readYourWritesTimeoutMs),
  });
}

/** The live updates hub, ended before the server closes (open streams would hold it). */
function liveHub(app: FastifyInstance, deps: AppDependencies, settings: LiveSettings): LiveHub {
  const hub = createLiveHub({
    db: deps.db,
    feed: settings.feed,
    sessionOf: (userId) => findAccount(deps.db, userId),
    log: app.log.child({ component: 'live-updates' }),
    ...(settings.maxStreamsPerUser ? { maxStreamsPerUser: settings.maxStreamsPerUser } : {}),
    ...(settings.heartbeatMs ? { heartbeatMs: settings.heartbeatMs } : {}),
    ...(settings.projectionsPushMs ? { projectionsPushMs: settings.projectionsPushMs } : {}),
  });
  app.addHook('preClose', () => hub.close());
  return hub;
}

/**
 * Queries of the read tables: on READ_DATABASE_URL's replicas once caught up, else the
 * primary. Commands, identity, idempotency and rate limits, and the admins' audit reads over
 * ledger.* always use the primary (deps.db).
 */
function readRouter(deps: AppDependencies, metrics: ApiMetrics, log: Logger, catchUp: CatchUpOptions): ReadRouter {
  const replicaLog = log.child({ component: 'read-replicas' });
  return createReadRouter({
    primary: deps.db,
    catchUp,
    replicas: deps.replicas ?? [],
    maxWaitMs: deps.config.readReplicaMaxWaitMs ?? CONFIG_DEFAULTS.READ_REPLICA_MAX_WAIT_MS,
    observer: {
      served: (outcome, { waitedMs, replica, error }) => {
        metrics.replicaReads.inc({ outcome });
        // Logged when a replica was tried: while a failed one is skipped, reads are only counted.
        if (outcome === 'replica' || replica === undefined) return;
        // Never the URL (it carries the password): the replica's place in READ_DATABASE_URL.
        const fields = { replica, waitedMs: Math.round(waitedMs), ...(error ? { err: error } : {}) };
        replicaLog.warn(
          fields,
          `read served by the primary: ${outcome === 'primary_lagging' ? 'replica lagging' : 'replica unavailable'}`,
        );
      },
    },
  });
}

function bothObservers(
  metrics: ReadAfterReplyObserver,
  other: ReadAfterReplyObserver | undefined,
): ReadAfterReplyObserver {
  if (!other) return metrics;
  return {
    reached: (waitedMs) => (metrics.reached(waitedMs), other.reached(waitedMs)),
    timedOut: (waitedMs) => (metrics.timedOut(waitedMs), other.timedOut(waitedMs)),
  };
}

/**
 * The spec's session check posts `Content-Type: application/json` with no body; Fastify's
 * default parser answers that with 400, which would sign the user out. An empty body is {};
 * any other body goes to Fastify's own parser (secure-json-parse), which refuses `__proto__`
 * and `constructor.prototype` keys (prototype poisoning) with 400 FST_ERR_CTP_INVALID_JSON_BODY.
 */
function installJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, done);
  });
}
