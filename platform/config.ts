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
  JWT_SECRET: z.string().min(32).optional(),
  ADMIN_EMAIL: z.string().email().default('admin@wallet.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
