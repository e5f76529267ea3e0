/**
 * Production mode's startup refusals: with NODE_ENV=production (config.PRODUCTION) a process
 * will not start on a default that is only safe on a developer's machine - the embedded
 * Postgres and its postgres/postgres superuser, the sandbox card provider (it credits test
 * cards without any payment), the outbox mailer (it prints one-time codes to the log), the
 * local demo's collection account (deposits would tell customers to pay into it), weak,
 * placeholder or per-container generated secrets. Each default is refused unless it is
 * replaced or explicitly allowed, and every problem names its variable and the fix.
 *
 * Two refusals depend on the database, not configuration, and throw ProductionRefusal too:
 * what the connected role may do (runtimePrivilegeRefusals, checked by every serving process
 * right after it connects: a DATABASE_URL naming the schema owner or a superuser would give
 * the app the power to rewrite the ledger), and no admin yet with no ADMIN_PASSWORD, so a
 * generated password would be kept in the container (ensureFirstAdmin, identity/admin.ts).
 */
import type { Kysely } from 'kysely';
import { COLLECTION_DEFAULTS, type Config } from './config.ts';
import { runtimePrivilegeProblems } from './runtime-privileges.ts';
import type { SchemaPolicy } from './runtime-role.ts';

/** What a process runs decides what it needs: the worker sends mail, the API takes card payments. */
export type ProcessRole = 'all' | 'api' | 'worker' | 'cli';

/** Placeholders shipped by this project: the old docker-compose default, and .env.example's values. */
export const KNOWN_PLACEHOLDER_SECRETS: readonly string[] = [
  'change-me-to-a-long-random-secret-of-32-chars',
  'change-me-jwt-secret-from-openssl-rand-base64-48',
  'change-me-pin-pepper-from-openssl-rand-base64-48',
  'change-me-owner-password-from-openssl-rand-hex-32',
  'change-me-app-password-from-openssl-rand-hex-32',
  'change-me-admin-password',
  'change-me-smtp-password',
];

/** Words that mark a value someone was meant to replace; long enough never to occur in random output by chance. */
const PLACEHOLDER_WORDS =
  /change[-_ ]?me|placeholder|example|replace[-_ ]?(me|with)|your[-_ ]?secret|not[-_ ]?a[-_ ]?secret/i;

/** Random secrets use many different characters; a value with fewer is a pattern (aaaa..., abab...). */
const MIN_DISTINCT_CHARACTERS = 8;

/** Passwords every scanner tries first. */
const WELL_KNOWN_PASSWORDS: ReadonlySet<string> = new Set([
  'postgres',
  'password',
  'admin',
  'root',
  'secret',
  'wallet',
]);

const GENERATE_SECRET = 'generate one with: openssl rand -base64 48';

export class ProductionRefusal extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(refusalMessage(problems));
    this.name = 'ProductionRefusal';
    this.problems = problems;
  }
}

export function refusalMessage(problems: readonly string[]): string {
  return [
    'Refusing to start in production mode (NODE_ENV=production):',
    ...problems.map((problem) => `  - ${problem}`),
    'Replace each default, or allow it explicitly where the line says how.',
  ].join('\n');
}

/** True for the project's own placeholders and for values that are obviously not random. */
export function isPlaceholderSecret(value: string): boolean {
  return (
    KNOWN_PLACEHOLDER_SECRETS.includes(value) ||
    PLACEHOLDER_WORDS.test(value) ||
    new Set(value).size < MIN_DISTINCT_CHARACTERS
  );
}

/** Every unsafe default this process would start with in production mode; empty outside it. */
export function productionProblems(config: Config, role: ProcessRole = 'all'): string[] {
  if (!config.PRODUCTION) return [];
  const servesApi = role === 'all' || role === 'api';
  const sendsMail = role === 'all' || role === 'worker';
  const usesSecrets = role !== 'cli';
  return [
    ...databaseProblems(config),
    ...(servesApi ? cardProblems(config) : []),
    ...(servesApi ? collectionProblems(config) : []),
    ...(sendsMail ? mailProblems(config) : []),
    ...(usesSecrets ? secretProblems(config) : []),
    // Any process given a placeholder admin password refuses it: the API at first start, admin:create always.
    ...adminProblems(config),
  ];
}

/** Throws ProductionRefusal listing every problem: the backstop inside the composition root. */
export function assertSafeForProduction(config: Config, role: ProcessRole): void {
  const problems = productionProblems(config, role);
  if (problems.length > 0) throw new ProductionRefusal(problems);
}

/**
 * Production mode: what the role the process connected as (DATABASE_URL) could do that the
 * runtime must not - superuser, owner of the ledger, DDL, ledger writes
 * (platform/runtime-privileges.ts) - each a refusal line naming DATABASE_URL; empty outside
 * production (a developer's database is theirs).
 */
export async function runtimePrivilegeRefusals(
  config: Pick<Config, 'PRODUCTION'>,
  db: Kysely<unknown>,
  policies: readonly SchemaPolicy[],
): Promise<string[]> {
  if (!config.PRODUCTION) return [];
  return (await runtimePrivilegeProblems(db, policies)).map((problem) => `DATABASE_URL: ${problem}`);
}

/** Throws ProductionRefusal listing every runtimePrivilegeRefusals line. */
export async function assertRuntimePrivileges(
  config: Pick<Config, 'PRODUCTION'>,
  db: Kysely<unknown>,
  policies: readonly SchemaPolicy[],
): Promise<void> {
  const problems = await runtimePrivilegeRefusals(config, db, policies);
  if (problems.length > 0) throw new ProductionRefusal(problems);
}

/** For entry points (bin/): prints the refusal - no stack trace, it is the operator's to fix - and exits 1. */
export function exitIfUnsafeForProduction(config: Config, role: ProcessRole): void {
  const problems = productionProblems(config, role);
  if (problems.length === 0) return;
  exitRefused(new ProductionRefusal(problems));
}

/** For entry points: a ProductionRefusal raised later in startup (the first admin) ends the process the same way. */
export function exitRefused(error: unknown): never {
  if (!(error instanceof ProductionRefusal)) throw error;
  // Plain text, not a log line: the process never started, and the list is the operator's to read and fix.
  console.error(error.message);
  process.exit(1);
}

function databaseProblems(config: Config): string[] {
  if (config.DATABASE_URL === undefined) {
    return config.ALLOW_EMBEDDED_POSTGRES
      ? []
      : [
          `DATABASE_URL is not set, so the embedded Postgres would run (superuser postgres/postgres, data in ${config.DATA_DIR}/postgres): set DATABASE_URL to your Postgres, or ALLOW_EMBEDDED_POSTGRES=true to run the embedded one anyway`,
        ];
  }
  return [
    ...weakPasswordProblem('DATABASE_URL', config.DATABASE_URL),
    ...weakPasswordProblem('DATABASE_OWNER_URL', config.DATABASE_OWNER_URL),
    ...weakPasswordProblem('LISTEN_DATABASE_URL', config.LISTEN_DATABASE_URL),
  ];
}

function weakPasswordProblem(variable: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  const url = new URL(value);
  const user = decodedOrRaw(url.username);
  const password = decodedOrRaw(url.password);
  // The password itself is never printed: only that it is weak.
  if (
    password !== '' &&
    (password === user || WELL_KNOWN_PASSWORDS.has(password.toLowerCase()) || isPlaceholderSecret(password))
  ) {
    return [
      `${variable} connects as ${user || 'its user'} with a default, placeholder or trivial password: give that role its own password (generate one with: openssl rand -hex 32)`,
    ];
  }
  return [];
}

/** URL user info is percent-encoded; a malformed escape is compared as written. */
function decodedOrRaw(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}

function cardProblems(config: Config): string[] {
  if (config.CARD_PROVIDER === 'sandbox') return [];
  if (config.STRIPE_SECRET_KEY === undefined) {
    return [
      'CARD_PROVIDER is not set and STRIPE_SECRET_KEY is empty, so card deposits would go to the sandbox provider, which credits test cards (pm_card_visa) without any payment: set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET), or CARD_PROVIDER=sandbox to allow the sandbox deliberately',
    ];
  }
  // A test-mode key is the sandbox's hole again: Stripe's test cards succeed and no money moves.
  if (/^(sk|rk)_test_/.test(config.STRIPE_SECRET_KEY) && !config.ALLOW_STRIPE_TEST_KEY) {
    return [
      'STRIPE_SECRET_KEY is a Stripe test-mode key, whose test cards succeed without any payment: use a live key (sk_live_...), or ALLOW_STRIPE_TEST_KEY=true for a staging deployment',
    ];
  }
  return [];
}

/**
 * The API shows the collection account as where to pay a bank-transfer or UPI deposit; the
 * demo's account is made up, and its UPI ID could be a stranger's (`@upi` is a real handle),
 * so money sent there would never reach the wallet. No allowance: a staging deployment sets
 * an account of its own too. The name alone is left to the operator: it identifies no account.
 */
function collectionProblems(config: Config): string[] {
  const demo: string[] = [];
  if (config.COLLECTION_ACCOUNT_NUMBER === COLLECTION_DEFAULTS.accountNumber) demo.push('COLLECTION_ACCOUNT_NUMBER');
  if (config.COLLECTION_IFSC === COLLECTION_DEFAULTS.ifsc) demo.push('COLLECTION_IFSC');
  if (config.COLLECTION_UPI_ID === COLLECTION_DEFAULTS.upiId) demo.push('COLLECTION_UPI_ID');
  if (demo.length === 0) return [];
  return [
    `${new Intl.ListFormat('en').format(demo)} ${demo.length === 1 ? 'is' : 'are'} still the local demo's collection account (not a real bank), which bank-transfer and UPI deposits tell customers to pay into: set COLLECTION_ACCOUNT_NAME, COLLECTION_ACCOUNT_NUMBER, COLLECTION_IFSC and COLLECTION_UPI_ID to the wallet's own collection account`,
  ];
}

function mailProblems(config: Config): string[] {
  if (config.SMTP_URL !== undefined) {
    const password = decodedOrRaw(new URL(config.SMTP_URL).password);
    return password !== '' && isPlaceholderSecret(password)
      ? ['SMTP_URL holds a placeholder password: set the address and credentials of your mail server']
      : [];
  }
  if (config.ALLOW_OUTBOX_MAILER) return [];
  return [
    `SMTP_URL is not set, so e-mails - one-time codes included - would be printed to the log and kept in ${config.DATA_DIR}/outbox: set SMTP_URL (e.g. smtp://user:password@smtp.host:587), or ALLOW_OUTBOX_MAILER=true`,
  ];
}

function secretProblems(config: Config): string[] {
  const problems: string[] = [];
  if (config.JWT_SECRET === undefined) {
    problems.push(
      `JWT_SECRET is not set: every API and worker process must share one secret (a generated ${config.DATA_DIR}/jwt-secret differs per container, and a worker could not open the mail an API sealed): ${GENERATE_SECRET}`,
    );
  } else if (isPlaceholderSecret(config.JWT_SECRET)) {
    problems.push(
      `JWT_SECRET is a known placeholder or an obvious pattern, so anyone could sign a token for any account, admins included: ${GENERATE_SECRET}`,
    );
  }
  if (config.PIN_PEPPER === undefined) {
    problems.push(
      `PIN_PEPPER is not set: every API and worker process must share one, kept outside the database: ${GENERATE_SECRET}`,
    );
  } else if (isPlaceholderSecret(config.PIN_PEPPER)) {
    problems.push(`PIN_PEPPER is a known placeholder or an obvious pattern: ${GENERATE_SECRET}`);
  } else if (config.PIN_PEPPER === config.JWT_SECRET) {
    problems.push(
      `PIN_PEPPER equals JWT_SECRET: it must be a secret of its own, so that one leak does not give away both: ${GENERATE_SECRET}`,
    );
  }
  return problems;
}

function adminProblems(config: Config): string[] {
  if (config.ADMIN_PASSWORD === undefined || !isPlaceholderSecret(config.ADMIN_PASSWORD)) return [];
  return [
    'ADMIN_PASSWORD is a placeholder: choose a real password for the first admin, or unset it and create the admin with npm run admin:create',
  ];
}
