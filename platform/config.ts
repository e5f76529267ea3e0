/**
 * Process configuration: read from the environment once, validated with zod, frozen.
 * Only entry points (bin/) call loadConfig; everything else receives the parsed object.
 */
import { z } from 'zod';

const configSchema = z.object({
  DATABASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  DATA_DIR: z.string().default('var'),
  // Port of the embedded Postgres (no DATABASE_URL); another port lets two servers run side by side (tests).
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  JWT_SECRET: z.string().min(32).optional(),
  // Lets a Prometheus scraper off the host read /metrics (loopback always may).
  METRICS_TOKEN: z.string().min(16).optional(),
  ADMIN_EMAIL: z.string().email().default('admin@wallet.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Browser origins allowed to call the API with credentials, comma-separated, exact match.
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) => Object.freeze(value.split(',').map((origin) => origin.trim().replace(/\/+$/, '')).filter((origin) => origin !== ''))),
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
  // Postgres so every API process shares them: per account on signed-in routes, per client IP elsewhere.
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(15 * 60 * 1000),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(100),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(10),
  // Reverse proxies in front of the API that append to X-Forwarded-For (0: none, the client
  // connects directly). The client IP is taken that many hops back; a header a client forges
  // further back is ignored. With a proxy, /metrics also needs METRICS_TOKEN from loopback.
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // Where those proxies connect from: IPs, CIDRs or loopback/linklocal/uniquelocal, comma-separated.
  TRUST_PROXY_ADDRESSES: z
    .string()
    .default('loopback,linklocal,uniquelocal')
    .transform((value) => Object.freeze(value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')))
    .refine((entries) => entries.length > 0, 'at least one address or range'),
  // Card payments: Stripe when STRIPE_SECRET_KEY is set, otherwise the offline sandbox provider.
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  // Only to point the Stripe SDK at another host (a local fake in tests).
  STRIPE_API_HOST: z.string().min(1).optional(),
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  // `npm start` runs the projection and mail workers in-process unless this is false.
  RUN_WORKERS: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  // Read-your-writes: how long a read waits for its projection to reach the caller's checkpoint.
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(30_000).default(3_000),
});

export type Config = Readonly<z.infer<typeof configSchema>>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return Object.freeze(parsed.data);
}
