/**
 * Every setting of the process configuration, grouped by concern, each with its one default.
 * platform/config.ts composes the groups into one flat schema (the environment is flat, and
 * the code reads `config.PORT`, not `config.http.PORT`) and parses it once; nothing else
 * states a default of these settings. README.md's settings table is checked against these
 * groups (platform/config.test.ts). Hooks that only tests need are not settings: they are
 * parameters of the test wiring (e.g. createCardProvider's Stripe address), so no environment
 * can turn them on.
 */
import { z } from 'zod';

/** JWT_SECRET and PIN_PEPPER: at least 32 characters (so at least 32 bytes). */
export const MIN_SECRET_LENGTH = 32;
const SECRET_LENGTH_MESSAGE = `must be at least ${MIN_SECRET_LENGTH} characters (generate one with: openssl rand -base64 48)`;

/** `true` / `false` flags; anything else is a typo the operator should hear about. */
function flag(fallback: 'true' | 'false') {
  return z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');
}

/** A comma-separated list, trimmed, empty entries dropped, frozen. */
function list(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((value) =>
      Object.freeze(
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      ),
    );
}

const milliseconds = (fallback: number) => z.coerce.number().int().min(0).max(30_000).default(fallback);
const port = () => z.coerce.number().int().min(1).max(65535);

/** The collection account of a local demo: what a deposit says to pay into when none is configured. */
export const COLLECTION_DEFAULTS = Object.freeze({
  accountName: 'Rupee Wallet Collections',
  accountNumber: '50200012345678',
  ifsc: 'WLTB0000001',
  upiId: 'rupeewallet@upi',
});

/** What every process is: its mode, its log, its local data, and whether `npm start` runs the workers too. */
export const processSettings = z.object({
  // Only `production` means anything: it turns on the startup refusals of platform/production.ts.
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('var'),
  // `npm start` runs the projection and mail workers in-process unless this is false.
  RUN_WORKERS: flag('true'),
});

/** Where the API listens and who may call it. */
export const httpSettings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  // Browser origins allowed to call the API with credentials, comma-separated, exact match.
  CORS_ORIGINS: list('').transform((origins) =>
    Object.freeze(origins.map((origin) => origin.replace(/(?<!\/)\/+$/, '')).filter((origin) => origin !== '')),
  ),
  // Reverse proxies in front of the API that append to X-Forwarded-For (0: none, the client
  // connects directly). The client IP is taken that many hops back; a header a client forges
  // further back is ignored. With a proxy, /metrics also needs METRICS_TOKEN from loopback.
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // Where those proxies connect from: IPs, CIDRs or loopback/linklocal/uniquelocal, comma-separated.
  TRUST_PROXY_ADDRESSES: list('loopback,linklocal,uniquelocal').refine(
    (entries) => entries.length > 0,
    'at least one address or range',
  ),
  // The API docs (/api/docs: Swagger UI and the OpenAPI document). Unset: off in production
  // (NODE_ENV=production), on otherwise; `true` or `false` decides.
  API_DOCS: z.enum(['true', 'false']).optional(),
  // Lets a Prometheus scraper off the host read /metrics (loopback always may).
  METRICS_TOKEN: z.string().min(16).optional(),
  // The worker's own HTTP port: GET /health/live, /health/ready, /health and /metrics (the same
  // access rule as the API's: METRICS_TOKEN, or loopback). Unset: none, so two workers on one
  // host never collide.
  WORKER_HEALTH_PORT: port().optional(),
});

/** The Postgres the processes use: given, or embedded under DATA_DIR. */
export const databaseSettings = z.object({
  // What the API, workers and operator CLI connect as: the runtime role (a member of wallet_runtime).
  DATABASE_URL: z.string().url().optional(),
  // The one connection per process that holds session state (LISTEN for wake-ups and
  // read-your-writes): straight to Postgres when DATABASE_URL goes through a transaction-mode
  // pooler such as PgBouncer, which would lose a LISTEN between transactions. Unset: DATABASE_URL.
  LISTEN_DATABASE_URL: z.string().url().optional(),
  // What migrations connect as: the owner of the schema. Unset: migrations use DATABASE_URL
  // (a single-role setup), and a start that finds migrations pending refuses to run.
  DATABASE_OWNER_URL: z.string().url().optional(),
  // Port of the embedded Postgres (no DATABASE_URL); another port lets two servers run side by side.
  EMBEDDED_POSTGRES_PORT: port().default(54329),
});

/** Secrets, the first admin and Google sign-in. */
export const authSettings = z.object({
  JWT_SECRET: z.string().min(MIN_SECRET_LENGTH, SECRET_LENGTH_MESSAGE).optional(),
  // The pepper of the PIN verifier (identity/pin-pepper.ts): its own secret, never in the database.
  PIN_PEPPER: z.string().min(MIN_SECRET_LENGTH, SECRET_LENGTH_MESSAGE).optional(),
  ADMIN_EMAIL: z.string().email().default('admin@wallet.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  // The first admin's name, as the app greets them ("Priya Sharma"); unset: ADMIN_EMAIL's name part.
  ADMIN_NAME: z.string().trim().min(1).max(100).optional(),
  // Google sign-in: enabled when both credentials are set; endpoints overridable (another
  // OpenID provider, or a local stand-in).
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  // Default: <PUBLIC_URL>/auth/google/callback.
  GOOGLE_CALLBACK_URL: z.string().url().optional(),
});

/** E-mail: SMTP in production; without SMTP_URL mails go to the log and <DATA_DIR>/outbox. */
export const mailSettings = z.object({
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Wallet <no-reply@wallet.local>'),
});

/**
 * Card payments: Stripe when STRIPE_SECRET_KEY is set, otherwise the offline sandbox provider;
 * CARD_PROVIDER chooses explicitly (production never falls back to the sandbox by itself).
 */
export const cardSettings = z.object({
  CARD_PROVIDER: z.enum(['stripe', 'sandbox']).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
});

/**
 * Several processes and read replicas, and what a request waits for. The three waits are
 * different bounds: a command's reply waits for the projections to apply it (0 turns that
 * off, and replies go at once); a read that names a checkpoint (`minPosition`, and the
 * statements' catch-up) waits for its projection to reach it - kept on when replies do not
 * wait, so a client holding a token still reads its writes; a read routed to a replica waits
 * for the replica to catch up and, past that short bound, reads the primary instead of
 * anything stale.
 */
export const highAvailabilitySettings = z.object({
  // How long a command's reply waits for the projections to apply it (0: no wait).
  READ_AFTER_REPLY_TIMEOUT_MS: milliseconds(2_000),
  // Read-your-writes: how long a read waits for its projection to reach the caller's checkpoint.
  READ_YOUR_WRITES_TIMEOUT_MS: milliseconds(3_000),
  // Streaming replicas of DATABASE_URL (comma-separated, as the runtime login) for the API's
  // reads of the read tables; a read waits up to READ_REPLICA_MAX_WAIT_MS for a replica to
  // reach what the primary shows, then reads the primary (projections/engine/replica-reads.ts).
  READ_DATABASE_URL: list('').pipe(z.array(z.string().url()).transform((urls) => Object.freeze(urls))),
  READ_REPLICA_MAX_WAIT_MS: milliseconds(200),
  // Readiness (/api/health/ready, the worker's /health/ready) fails while a projection's oldest
  // unapplied event is older than this many seconds.
  READY_MAX_PROJECTION_LAG_SECONDS: z.coerce.number().positive().max(86_400).default(30),
});

/** Rate limits and the amount above which an admin's money action needs a second admin. */
export const limitSettings = z.object({
  // Rate limits per window (spec: 100 per 15 min, 10 on authentication routes), counted in
  // Postgres so every API process shares them: per account on signed-in routes, per client IP
  // elsewhere. Signed-in reads have a budget of their own, sized from a day of real use
  // (docs/decisions/0012): the spec's 100 was spent by about ten page visits.
  RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60 * 1000),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(100),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_READ_MAX: z.coerce.number().int().positive().default(600),
  // An admin's settlement or reversal above this many rupees waits for a second admin.
  ADMIN_APPROVAL_THRESHOLD: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'rupees, e.g. 10000 or 10000.50')
    .default('10000')
    .transform((rupees) => {
      const [whole = '0', fraction = ''] = rupees.split('.');
      return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
    }),
});

/**
 * Where customers send bank-transfer and UPI deposits (the deposit dialog shows them, with a
 * UPI QR): the wallet's collection account. The defaults are a local demo's, not a real bank.
 */
export const depositSettings = z.object({
  COLLECTION_ACCOUNT_NAME: z.string().trim().min(2).max(100).default(COLLECTION_DEFAULTS.accountName),
  COLLECTION_ACCOUNT_NUMBER: z
    .string()
    .regex(/^\d{8,18}$/, '8 to 18 digits')
    .default(COLLECTION_DEFAULTS.accountNumber),
  COLLECTION_IFSC: z
    .string()
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'an IFSC: four letters, a zero, six letters or digits')
    .default(COLLECTION_DEFAULTS.ifsc),
  COLLECTION_UPI_ID: z
    .string()
    .regex(/^[a-z0-9._-]{2,256}@[a-z]{2,64}$/, 'a UPI ID such as wallet@bank, lower case')
    .default(COLLECTION_DEFAULTS.upiId),
});

/** Production mode's explicit allowances of the local defaults (platform/production.ts). */
export const productionAllowanceSettings = z.object({
  ALLOW_EMBEDDED_POSTGRES: flag('false'),
  ALLOW_OUTBOX_MAILER: flag('false'),
  ALLOW_GENERATED_ADMIN_PASSWORD: flag('false'),
  ALLOW_STRIPE_TEST_KEY: flag('false'),
});

/** The groups by name, for the checks that walk every setting (README's table). */
export const CONFIG_GROUPS = Object.freeze({
  process: processSettings,
  http: httpSettings,
  database: databaseSettings,
  auth: authSettings,
  mail: mailSettings,
  card: cardSettings,
  highAvailability: highAvailabilitySettings,
  limits: limitSettings,
  deposits: depositSettings,
  productionAllowances: productionAllowanceSettings,
});
