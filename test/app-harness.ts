/**
 * The app-wide test harness (api/, identity/, providers/ tests use it): a fresh database, pg-boss, the
 * ledger, the real app, a real SMTP server (smtp-server) behind the real mail worker, a
 * movable clock, and a recorder of every JSON reply (scanned for secrets at the end).
 * Everything connects as the runtime role (test/database.ts), as the app does in
 * production, so every api/ test also shows the runtime's grants suffice.
 */
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { buildApp, type AppConfig, type AppDependencies, type LiveSettings } from '../api/app.ts';
import { createLedger, type Ledger, type LedgerTables } from '../ledger/index.ts';
import { createMailer } from '../notifications/mailer.ts';
import { CONFIG_DEFAULTS } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { startMailWorker } from '../notifications/worker.ts';
import { openReadReplica, tablesView } from '../platform/database.ts';
import { createJobBoss, type JobBoss } from '../platform/jobs.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { waitUntil } from './wait.ts';
import type { Clock } from '../identity/clock.ts';
import type { BalanceReader } from '../identity/index.ts';
import { createAdmin, ensureFirstAdmin } from '../identity/admin.ts';
import { deriveKey } from '../identity/secrets.ts';
import { createCheckpointWaiter, startProjectionWorkers, type ProjectorOptions } from '../projections/index.ts';
import { createWiredLedger } from '../runtime/ledger.ts';

export const TEST_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
export const TEST_PIN_PEPPER = 'test-pin-pepper-9876543210-zyxwvutsrqponmlkjihgf';
export const ADMIN = { email: 'admin@wallet.test', password: 'admin-password-1' };
export const PUBLIC_URL = 'http://wallet.test:3000';

export interface CapturedMail {
  to: string;
  raw: string;
}

export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export function movableClock(start = Date.now()): MovableClock {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

export interface Harness {
  app: FastifyInstance;
  /** The app's configuration (startSiblingApp builds another app from it). */
  config: AppConfig;
  database: TestDatabase<unknown>;
  boss: JobBoss;
  ledger: Ledger;
  clock: MovableClock;
  mails: CapturedMail[];
  /** Every JSON body the app sent in this file. */
  replies: unknown[];
  call(options: InjectOptions): Promise<LightMyRequestResponse & { body: string; json: () => EnvelopeBody }>;
  waitForMail(to: string, predicate?: (mail: CapturedMail) => boolean): Promise<CapturedMail>;
  close(): Promise<void>;
}

export interface EnvelopeBody {
  success: boolean;
  message: string;
  code?: string;
  data?: unknown;
}

export interface HarnessDatabases {
  /** The database to run on instead of a fresh copy of the template (its drop() is called at close). */
  database?: TestDatabase<unknown>;
  /** READ_DATABASE_URL: replicas of `database` for the read tables (pools opened and closed here). */
  replicaUrls?: readonly string[];
}

/**
 * One request, asked again as a 503 PIN_CHECK_BUSY asks ("try again in a moment", with
 * `retry-after`), up to PIN_BUSY_ATTEMPTS times. The server refuses a PIN hash or check that
 * waited past PIN_TASK_TIMEOUT_MS (its bcrypt threads run niced, identity/secrets.ts), before
 * the command changes anything; on a CI box saturated by the suite's own processes a
 * registration or a first PIN check can wait that long. No test here asserts that refusal
 * through HTTP (identity/pin-pool.test.ts drives the pool itself).
 */
const PIN_BUSY_ATTEMPTS = 5;

async function injectAsAClientWould(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  for (let attempt = 1; ; attempt++) {
    const response = await app.inject(options);
    const busy = response.statusCode === 503 && response.body.includes('"PIN_CHECK_BUSY"');
    if (!busy || attempt === PIN_BUSY_ATTEMPTS) return response;
    await sleep(Number(response.headers['retry-after'] ?? 1) * 1000);
  }
}

export async function startHarness(
  overrides: Partial<AppConfig> = {},
  extra: Pick<Partial<AppDependencies>, 'card' | 'readAfterReply'> &
    HarnessDatabases & {
      ledger?: (db: TestDatabase<unknown>, boss: JobBoss) => Ledger;
      /** 'read-model': the app's own (the read model, through the replicas); default: the ledger's heads. */
      balances?: BalanceReader | 'read-model';
      /** Live updates (GET /api/users/events), fed by a checkpoint waiter of their own. */
      live?: Omit<LiveSettings, 'feed'>;
    } = {},
): Promise<Harness> {
  const database = extra.database ?? (await createTestDatabase<unknown>());
  const replicas = (extra.replicaUrls ?? []).map((url) =>
    openReadReplica(url, {
      applicationName: 'wallet-test-reads',
      // A test may stop a replica: its dropped connections are expected.
      log: createLogger('test', { level: 'silent' }),
    }),
  );
  const boss = createJobBoss(database.url, { supervise: false, schedule: false, max: 3 });
  boss.on('error', (error) => console.error('[jobs]', error));
  await boss.start();
  const ledger = extra.ledger
    ? extra.ledger(database, boss)
    : createLedger({ db: tablesView<LedgerTables>(database.db) });
  const clock = movableClock();
  const mails: CapturedMail[] = [];
  const smtp = await startSmtpCapture(mails);
  const mailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    from: 'Wallet <no-reply@wallet.test>',
    outboxDir: '/nonexistent',
  });
  await startMailWorker(boss, {
    mailer,
    sealKey: deriveKey(TEST_SECRET, 'mail-seal'),
    publicUrl: PUBLIC_URL,
    pollingIntervalSeconds: 0.5,
  });
  const config: AppConfig = {
    publicUrl: PUBLIC_URL,
    corsOrigins: ['http://client.test:4173'],
    logLevel: 'silent',
    jwtSecret: TEST_SECRET,
    pinPepper: TEST_PIN_PEPPER,
    rateLimit: { windowMs: CONFIG_DEFAULTS.RATE_LIMIT_WINDOW_MS, max: 100_000, authMax: 100_000 },
    // No projection workers run here, so a command's reply has nothing to wait for;
    // startProjectedHarness turns the wait on.
    readAfterReplyTimeoutMs: 0,
    ...overrides,
  };
  const liveFeed = extra.live ? createCheckpointWaiter({ connectionString: database.url }) : undefined;
  const app = await buildApp({
    config,
    ...(liveFeed ? { live: { ...extra.live, feed: liveFeed } } : {}),
    db: database.db,
    pool: database.pool,
    boss,
    ledger,
    clock,
    card: extra.card,
    replicas,
    ...(extra.readAfterReply ? { readAfterReply: extra.readAfterReply } : {}),
    ...(extra.balances === 'read-model' ? {} : { balances: extra.balances ?? ledgerBalances(database) }),
  });
  // With ADMIN_PASSWORD nothing is written to DATA_DIR.
  await ensureFirstAdmin(
    database.db,
    ledger,
    { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, DATA_DIR: '/nonexistent' },
    createLogger('test', { level: 'silent' }),
  );
  const replies: unknown[] = [];
  const harness: Harness = {
    app,
    config,
    database,
    boss,
    ledger,
    clock,
    mails,
    replies,
    call: async (options) => {
      const response = await injectAsAClientWould(app, options);
      if (String(response.headers['content-type'] ?? '').includes('application/json'))
        replies.push(JSON.parse(response.body));
      return Object.assign(response, { json: () => JSON.parse(response.body) as EnvelopeBody });
    },
    waitForMail: async (to, predicate = () => true) => {
      const mail = await waitUntil(
        `a mail to ${to}`,
        () => mails.find((candidate) => candidate.to === to && predicate(candidate)),
        { timeoutMs: 15_000 },
      );
      mails.splice(mails.indexOf(mail), 1);
      return mail;
    },
    close: async () => {
      await app.close();
      await liveFeed?.close();
      await boss.stop({ graceful: false });
      await Promise.all(replicas.map((replica) => replica.destroy()));
      mailer.close();
      await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
      await database.drop();
    },
  };
  return harness;
}

/**
 * The app as it runs in production: the wired ledger (appends wake the projectors), balances
 * from the read model, projection workers running in this process, and command replies that
 * wait for the projections (as in production). `close()` stops the workers too.
 */
export async function startProjectedHarness(
  overrides: Partial<AppConfig> = {},
  workers: HarnessDatabases & {
    projector?: ProjectorOptions;
    readAfterReply?: AppDependencies['readAfterReply'];
    live?: Omit<LiveSettings, 'feed'>;
  } = {},
): Promise<Harness> {
  const harness = await startHarness(
    { readAfterReplyTimeoutMs: 10_000, ...overrides },
    {
      ...(workers.readAfterReply ? { readAfterReply: workers.readAfterReply } : {}),
      ...(workers.database ? { database: workers.database } : {}),
      ...(workers.replicaUrls ? { replicaUrls: workers.replicaUrls } : {}),
      ...(workers.live ? { live: workers.live } : {}),
      ledger: (database) => createWiredLedger(tablesView<LedgerTables>(database.db)),
      balances: 'read-model',
    },
  );
  const stopWorkers = await startProjectionWorkers({
    db: harness.database.db,
    connectionString: harness.database.url,
    boss: harness.boss,
    intervalMs: 200,
    schedule: false,
    log: createLogger('test', { level: 'silent' }),
    ...(workers.projector ? { projector: workers.projector } : {}),
  });
  const close = harness.close;
  return Object.assign(harness, {
    close: async () => {
      await stopWorkers();
      await close();
    },
  });
}

/** Balances from the ledger's account heads, for a harness without projection workers. */
function ledgerBalances(database: TestDatabase<unknown>): BalanceReader {
  return {
    ofAccount: async (accountId) => {
      const row = await tablesView<LedgerTables>(database.db)
        .selectFrom('ledger.accounts')
        .select('balance')
        .where('id', '=', accountId)
        .executeTakeFirst();
      return row?.balance ?? 0n;
    },
  };
}

/**
 * A second app on the harness's database, boss and ledger, with its own Fastify instance and
 * plugin state (as a second API process would have): the harness's config plus `overrides`.
 * The caller closes it.
 */
export async function startSiblingApp(
  harness: Harness,
  overrides: Partial<AppConfig> = {},
  deps: Pick<Partial<AppDependencies>, 'db' | 'pool' | 'live'> = {},
): Promise<FastifyInstance> {
  return buildApp({
    ...(deps.live ? { live: deps.live } : {}),
    config: { ...harness.config, ...overrides },
    db: deps.db ?? harness.database.db,
    pool: deps.pool ?? harness.database.pool,
    boss: harness.boss,
    ledger: harness.ledger,
    clock: harness.clock,
    balances: { ofAccount: async () => 0n },
  });
}

async function startSmtpCapture(mails: CapturedMail[]): Promise<{ server: SMTPServer; port: number }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        for (const recipient of session.envelope.rcptTo) mails.push({ to: recipient.address, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address() as AddressInfo;
  return { server, port: address.port };
}

/** The 6-digit code in a captured mail. */
export function codeFrom(mail: CapturedMail): string {
  const match = /^\s{4}(\d{6})\s*$/m.exec(mail.raw);
  if (!match?.[1]) throw new Error(`no code in mail:\n${mail.raw}`);
  return match[1];
}

export const VALID_REGISTRATION = {
  firstName: 'Asha',
  lastName: 'Verma',
  contactNo: '+91 98765 43210',
  identification: 'Aadhaar Card',
  identificationNumber: '1234 5678 9012',
  address: '12 MG Road, Pune',
  password: 'long-password-1',
  transactionPin: '1234',
};

/**
 * The admin who activates registeredUser's users: a second admin, so that ADMIN may settle
 * deposits into them alone (a settlement into an account the settling admin activated waits
 * for a second admin, admin-actions/money-actions.ts). Created on first use.
 */
export const VERIFIER = { email: 'verifier@wallet.test', password: 'verifier-password-1' };

const verifiers = new WeakMap<Harness, Promise<string>>();

/** VERIFIER's token on this harness (the admin is created the first time). */
export function verifierToken(harness: Harness): Promise<string> {
  let token = verifiers.get(harness);
  if (!token) {
    token = createAdmin(harness.database.db, harness.ledger, VERIFIER).then(() =>
      signIn(harness, VERIFIER.email, VERIFIER.password),
    );
    verifiers.set(harness, token);
  }
  return token;
}

/** Registers through HTTP, activates through the admin route (as VERIFIER), signs in; returns id and token. */
export async function registeredUser(
  harness: Harness,
  email: string,
  options: { activate?: boolean; pin?: string } = {},
): Promise<{ id: string; token: string | undefined; email: string }> {
  const registered = await harness.call({
    method: 'POST',
    url: '/api/users/register',
    payload: { ...VALID_REGISTRATION, email, transactionPin: options.pin ?? '1234' },
  });
  if (registered.statusCode !== 201) throw new Error(`register ${email}: ${registered.body}`);
  const adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  const users = await harness.call({
    method: 'GET',
    url: '/api/users/get-all-users',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const user = (users.json().data as { _id: string; email: string }[]).find((candidate) => candidate.email === email);
  if (!user) throw new Error(`${email} not listed`);
  if (options.activate === false) return { id: user._id, token: undefined, email };
  await harness.call({
    method: 'POST',
    url: '/api/users/update-user-verified-status',
    headers: { authorization: `Bearer ${await verifierToken(harness)}` },
    payload: { selectedUser: user._id, isVerified: true },
  });
  return { id: user._id, token: await signIn(harness, email, VALID_REGISTRATION.password), email };
}

export async function signIn(harness: Harness, email: string, password: string): Promise<string> {
  const response = await harness.call({ method: 'POST', url: '/api/users/login', payload: { email, password } });
  const body = response.json();
  if (response.statusCode !== 200 || typeof body.data !== 'string') throw new Error(`login ${email}: ${response.body}`);
  return body.data;
}

/** A UPI deposit of `rupees` (pending until an admin settles it), by a user whose PIN is 1234; its id. */
export async function requestUpiDeposit(harness: Harness, userToken: string, rupees: number): Promise<string> {
  const response = await harness.call({
    method: 'POST',
    url: '/api/transactions/deposit-funds',
    headers: { authorization: `Bearer ${userToken}` },
    payload: {
      amount: rupees,
      reference: 'top up',
      transactionPin: '1234',
      paymentMethod: 'upi',
      upiDetails: { upiId: 'me@okbank' },
    },
  });
  if (response.statusCode !== 200) throw new Error(`deposit-funds: ${response.statusCode} ${response.body}`);
  return (response.json().data as { transactionId: string }).transactionId;
}

/** A UPI deposit settled by an admin: the way money enters a wallet without a card. The deposit's id. */
export async function fundByUpi(
  harness: Harness,
  userToken: string,
  adminToken: string,
  rupees: number,
): Promise<string> {
  const depositId = await requestUpiDeposit(harness, userToken, rupees);
  const settled = await harness.call({
    method: 'POST',
    url: '/api/transactions/settle-deposit',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { depositId },
  });
  if (settled.statusCode !== 200) throw new Error(`settle-deposit: ${settled.statusCode} ${settled.body}`);
  return depositId;
}

const SECRET_KEY = /hash|password|passwd|secret|otp|^pin$|pin_?code|transactionpin|^code$/i;
const SECRET_VALUE = /^\$2[aby]\$|^\$argon2/;

/** Every key that looks like a secret (the envelope's top-level `code` is allowed), and every hash-looking value. */
export function findSecrets(replies: readonly unknown[], knownCodes: readonly string[]): string[] {
  const findings: string[] = [];
  const visit = (value: unknown, path: string, topLevel: boolean): void => {
    if (typeof value === 'string') {
      if (SECRET_VALUE.test(value) || knownCodes.includes(value)) findings.push(`${path} = ${value}`);
      return;
    }
    if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${path}[${index}]`, false));
    if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (SECRET_KEY.test(key) && !(topLevel && key === 'code')) findings.push(`${path}.${key}`);
        visit(child, `${path}.${key}`, false);
      }
    }
  };
  replies.forEach((reply, index) => visit(reply, `reply[${index}]`, true));
  return findings;
}
