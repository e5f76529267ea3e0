/**
 * Process configuration: read from the environment once, validated with zod, frozen.
 * Only entry points (bin/) call loadConfig; everything else receives the parsed object.
 * Production mode is the one parsed flag PRODUCTION (NODE_ENV=production); what it refuses
 * at startup lives in platform/production.ts.
 */
import { z } from 'zod';
import {
  authSettings,
  cardSettings,
  databaseSettings,
  depositSettings,
  highAvailabilitySettings,
  httpSettings,
  limitSettings,
  mailSettings,
  processSettings,
  productionAllowanceSettings,
} from './config-groups.ts';

export { COLLECTION_DEFAULTS, CONFIG_GROUPS, MIN_SECRET_LENGTH } from './config-groups.ts';

/** The groups of platform/config-groups.ts as one flat schema: the environment is flat. */
export const configSchema = z.object({
  ...processSettings.shape,
  ...httpSettings.shape,
  ...databaseSettings.shape,
  ...authSettings.shape,
  ...mailSettings.shape,
  ...cardSettings.shape,
  ...highAvailabilitySettings.shape,
  ...limitSettings.shape,
  ...depositSettings.shape,
  ...productionAllowanceSettings.shape,
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

/**
 * Every setting's default, from the schema itself: what a part built without the process's
 * configuration (a test's wiring of buildApp) falls back to, so no default is written twice.
 */
export const CONFIG_DEFAULTS: Config = loadConfig({});
