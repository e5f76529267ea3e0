/**
 * Process configuration: read from the environment once, validated with zod, frozen.
 * Only entry points (bin/) call loadConfig; everything else receives the parsed object.
 * Production mode is the one parsed flag PRODUCTION (NODE_ENV=production); what it refuses
 * at startup lives in platform/production.ts.
 */
import { z } from 'zod';

/** JWT_SECRET and PIN_PEPPER: at least 32 characters (so at least 32 bytes). */
export const MIN_SECRET_LENGTH = 32;
const SECRET_LENGTH_MESSAGE = `must be at least ${MIN_SECRET_LENGTH} characters (generate one with: openssl rand -base64 48)`;

/** `true` / `false` flags; anything else is a typo the operator should hear about. */
const flag = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

/** The collection account of a local demo: what a deposit says to pay into when none is configured. */
export const COLLECTION_DEFAULTS = Object.freeze({
  accountName: 'Rupee Wallet Collections',
  accountNumber: '50200012345678',
  ifsc: 'WLTB0000001',
  upiId: 'rupeewallet@upi',
});

const configSchema = z.object({
  // Only `production` means anything: it turns on the startup refusals of platform/production.ts.
  NODE_ENV: z.string().optional(),
  // What the API, workers and operator CLI connect as: the runtime role (a member of wallet_runtime).
  DATABASE_URL: z.string().url().optional(),
  // The one connection per process that holds session state (LISTEN for wake-ups and
  // read-your-writes): straight to Postgres when DATABASE_URL goes through a transaction-mode
  // pooler such as PgBouncer, which would lose a LISTEN between transactions. Unset: DATABASE_URL.
  LISTEN_DATABASE_URL: z.string().url().optional(),
  // What migrations connect as: the owner of the schema. Unset: migrations use DATABASE_URL
  // (a single-role setup), and a start that finds migrations pending refuses to run.
  DATABASE_OWNER_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  DATA_DIR: z.string().default('var'),
  // Port of the embedded Postgres (no DATABASE_URL); another port lets two servers run side by side (tests).
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  JWT_SECRET: z.string().min(MIN_SECRET_LENGTH, SECRET_LENGTH_MESSAGE).optional(),
  // The pepper of the PIN verifier (identity/pin-pepper.ts): its own secret, never in the database.
  PIN_PEPPER: z.string().min(MIN_SECRET_LENGTH, SECRET_LENGTH_MESSAGE).optional(),
  // Lets a Prometheus scraper off the host read /metrics (loopback always may).
  METRICS_TOKEN: z.string().min(16).optional(),
  ADMIN_EMAIL: z.string().email().default('admin@wallet.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  // The first admin's name, as the app greets them ("Priya Sharma"); unset: ADMIN_EMAIL's name part.
  ADMIN_NAME: z.string().trim().min(1).max(100).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Browser origins allowed to call the API with credentials, comma-separated, exact match.
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      Object.freeze(
        value
          .split(',')
          .map((origin) => origin.trim().replace(/(?<!\/)\/+$/, ''))
          .filter((origin) => origin !== ''),
      ),
    ),
  // E-mail: SMTP in production; without SMTP_URL mails go to the log and <DATA_DIR>/outbox.
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Wallet <no-reply@wallet.local>'),
  // Google sign-in: enabled when both credentials are set; endpoints overridable (tests, other OpenID providers).
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  // Default: <PUBLIC_URL>/auth/google/callback.
  GOOGLE_CALLBACK_URL: z.string().url().optional(),
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
  // Reverse proxies in front of the API that append to X-Forwarded-For (0: none, the client
  // connects directly). The client IP is taken that many hops back; a header a client forges
  // further back is ignored. With a proxy, /metrics also needs METRICS_TOKEN from loopback.
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // Where those proxies connect from: IPs, CIDRs or loopback/linklocal/uniquelocal, comma-separated.
  TRUST_PROXY_ADDRESSES: z
    .string()
    .default('loopback,linklocal,uniquelocal')
    .transform((value) =>
      Object.freeze(
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry !== ''),
      ),
    )
    .refine((entries) => entries.length > 0, 'at least one address or range'),
  // Card payments: Stripe when STRIPE_SECRET_KEY is set, otherwise the offline sandbox provider;
  // CARD_PROVIDER chooses explicitly (production never falls back to the sandbox by itself).
  CARD_PROVIDER: z.enum(['stripe', 'sandbox']).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  // `npm start` runs the projection and mail workers in-process unless this is false.
  RUN_WORKERS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  // An admin's settlement or reversal above this many rupees waits for a second admin.
  ADMIN_APPROVAL_THRESHOLD: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'rupees, e.g. 10000 or 10000.50')
    .default('10000')
    .transform((rupees) => {
      const [whole = '0', fraction = ''] = rupees.split('.');
      return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
    }),
  // Where customers send bank-transfer and UPI deposits (the deposit dialog shows them, with a
  // UPI QR): the wallet's collection account. The defaults are a local demo's, not a real bank.
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
  // How long a command's reply waits for the projections to apply it (0: no wait).
  READ_AFTER_REPLY_TIMEOUT_MS: z.coerce.number().int().min(0).max(30_000).default(2_000),
  // Read-your-writes: how long a read waits for its projection to reach the caller's checkpoint.
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(30_000).default(3_000),
  // Streaming replicas of DATABASE_URL (comma-separated, as the runtime login) for the API's
  // reads of the read tables; a read waits up to READ_REPLICA_MAX_WAIT_MS for a replica to
  // reach what the primary shows, then reads the primary (projections/engine/replica-reads.ts).
  READ_DATABASE_URL: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== ''),
    )
    .pipe(z.array(z.string().url()).transform((urls) => Object.freeze(urls))),
  READ_REPLICA_MAX_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(200),
  // The worker's own HTTP port: GET /health/live, /health/ready, /health and /metrics (the same
  // access rule as the API's: METRICS_TOKEN, or loopback). Unset: none, so two workers on one
  // host never collide.
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // The API docs (/api/docs: Swagger UI and the OpenAPI document). Unset: off in production
  // (NODE_ENV=production), on otherwise; `true` or `false` decides.
  API_DOCS: z.enum(['true', 'false']).optional(),
  // Readiness (/api/health/ready, the worker's /health/ready) fails while a projection's oldest
  // unapplied event is older than this many seconds.
  READY_MAX_PROJECTION_LAG_SECONDS: z.coerce.number().positive().max(86_400).default(30),
  // Production mode's explicit allowances of the local defaults (platform/production.ts).
  ALLOW_EMBEDDED_POSTGRES: flag,
  ALLOW_OUTBOX_MAILER: flag,
  ALLOW_GENERATED_ADMIN_PASSWORD: flag,
  ALLOW_STRIPE_TEST_KEY: flag,
});

const refinedSchema = configSchema
  .refine((config) => config.CARD_PROVIDER !== 'stripe' || config.STRIPE_SECRET_KEY !== undefined, {
    path: ['CARD_PROVIDER'],
    message: 'is stripe but STRIPE_SECRET_KEY is not set (set it, or CARD_PROVIDER=sandbox for the offline sandbox)',
  })
  // NODE_ENV is read here and nowhere else: the rest of the code asks config.PRODUCTION.
  .transform(({ NODE_ENV, API_DOCS, ...config }) => ({
    ...config,
    PRODUCTION: NODE_ENV === 'production',
    API_DOCS: API_DOCS === undefined ? NODE_ENV !== 'production' : API_DOCS === 'true',
  }));

export type Config = Readonly<z.infer<typeof refinedSchema>>;

function crossFieldProblems(
  config: Pick<z.infer<typeof configSchema>, 'DATABASE_URL' | 'DATABASE_OWNER_URL' | 'LISTEN_DATABASE_URL'>,
): string[] {
  // Without DATABASE_URL the app runs an embedded Postgres, whose owner it is already.
  const problems: string[] = [];
  if (config.DATABASE_OWNER_URL && !config.DATABASE_URL)
    problems.push('DATABASE_OWNER_URL: needs DATABASE_URL (the runtime role) beside it');
  if (config.LISTEN_DATABASE_URL && !config.DATABASE_URL)
    problems.push('LISTEN_DATABASE_URL: needs DATABASE_URL beside it (the embedded Postgres is always direct)');
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = refinedSchema.safeParse(withoutEmptyValues(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const problems = crossFieldProblems(parsed.data);
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return Object.freeze(parsed.data);
}

/**
 * An empty variable counts as unset: docker-compose passes optional settings through as
 * `${VAR:-}`, which is an empty string when the operator left them out.
 */
function withoutEmptyValues(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}
