/**
 * Production mode's refusals, one by one: each unsafe default is named with its variable,
 * disappears when replaced or explicitly allowed, and is asked only of the processes that
 * use it. Outside production nothing is refused.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { loadConfig } from './config.ts';
import {
  assertRuntimePrivileges,
  isPlaceholderSecret,
  KNOWN_PLACEHOLDER_SECRETS,
  productionProblems,
  ProductionRefusal,
  assertSafeForProduction,
  runtimePrivilegeRefusals,
} from './production.ts';
import { installation } from '../runtime/installation.ts';

const secret = () => randomBytes(48).toString('base64');

/** A production configuration with every default replaced: the baseline each test spoils once. */
function safeEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: `postgres://wallet_app:${randomBytes(32).toString('hex')}@db.internal:5432/wallet`,
    JWT_SECRET: secret(),
    PIN_PEPPER: secret(),
    SMTP_URL: 'smtp://mailer:s3cret-smtp@smtp.internal:587',
    STRIPE_SECRET_KEY: 'sk_live_abc123',
    ADMIN_PASSWORD: secret(),
    COLLECTION_ACCOUNT_NAME: 'Wallet Test Collections',
    COLLECTION_ACCOUNT_NUMBER: '00998877665544',
    COLLECTION_IFSC: 'TEST0000042',
    COLLECTION_UPI_ID: 'collections@testbank',
  };
}

/** The variable a problem starts with (a problem about several starts with a list of them). */
const variableOf = (problem: string) => /^\w+/.exec(problem)?.[0];

function problemsWith(
  overrides: Record<string, string | undefined>,
  role?: Parameters<typeof productionProblems>[1],
): string[] {
  const env = { ...safeEnv(), ...overrides };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  return productionProblems(loadConfig(env), role);
}

/** The one problem a change caused, by the variable it starts with. */
function onlyProblem(
  overrides: Record<string, string | undefined>,
  role?: Parameters<typeof productionProblems>[1],
): string {
  const problems = problemsWith(overrides, role);
  expect(problems).toHaveLength(1);
  return problems[0] ?? '';
}

describe('productionProblems', () => {
  it('finds nothing in a production configuration with every default replaced', () => {
    expect(problemsWith({})).toEqual([]);
  });

  it('finds nothing outside production mode, however unsafe the configuration', () => {
    expect(productionProblems(loadConfig({}))).toEqual([]);
    expect(
      productionProblems(loadConfig({ NODE_ENV: 'development', JWT_SECRET: KNOWN_PLACEHOLDER_SECRETS[0] })),
    ).toEqual([]);
  });

  it('refuses the embedded Postgres (postgres/postgres superuser) unless ALLOW_EMBEDDED_POSTGRES=true', () => {
    expect(onlyProblem({ DATABASE_URL: undefined })).toMatch(/^DATABASE_URL is not set.*ALLOW_EMBEDDED_POSTGRES=true/);
    expect(problemsWith({ DATABASE_URL: undefined, ALLOW_EMBEDDED_POSTGRES: 'true' })).toEqual([]);
  });

  it('refuses a DATABASE_URL with a default or placeholder password, without printing the password', () => {
    for (const url of [
      'postgres://postgres:postgres@db:5432/wallet',
      'postgres://wallet:wallet@db:5432/wallet',
      'postgres://wallet_app:password@db:5432/wallet',
      'postgres://wallet_app:change-me-app-password-from-openssl-rand-hex-32@db:5432/wallet',
    ]) {
      const problem = onlyProblem({ DATABASE_URL: url });
      expect(problem).toMatch(/^DATABASE_URL connects as \w+ with a default, placeholder or trivial password/);
      expect(problem).not.toContain('change-me-app');
    }
    // No password in the URL: peer, certificate or .pgpass authentication is the operator's choice.
    expect(problemsWith({ DATABASE_URL: 'postgres://wallet_app@db:5432/wallet' })).toEqual([]);
  });

  it("refuses the same in DATABASE_OWNER_URL (the owner migrates: .env.example's placeholder must not pass)", () => {
    const problem = onlyProblem({
      DATABASE_OWNER_URL: 'postgres://wallet_owner:change-me-owner-password-from-openssl-rand-hex-32@db:5432/wallet',
    });
    expect(problem).toMatch(
      /^DATABASE_OWNER_URL connects as wallet_owner with a default, placeholder or trivial password/,
    );
    expect(
      problemsWith({ DATABASE_OWNER_URL: 'postgres://wallet_owner:9f2c47a1b0e35d68c4a7e1f0b93d2c58@db:5432/wallet' }),
    ).toEqual([]);
  });

  it('refuses the same in LISTEN_DATABASE_URL (the direct connection past a pooler)', () => {
    expect(onlyProblem({ LISTEN_DATABASE_URL: 'postgres://wallet_app:postgres@db:5432/wallet' })).toMatch(
      /^LISTEN_DATABASE_URL connects as wallet_app with a default, placeholder or trivial password/,
    );
    expect(
      problemsWith({ LISTEN_DATABASE_URL: 'postgres://wallet_app:9f2c47a1b0e35d68c4a7e1f0b93d2c58@db:5432/wallet' }),
    ).toEqual([]);
  });

  it('refuses the sandbox card provider unless CARD_PROVIDER=sandbox (regression: it credited unpaid money)', () => {
    expect(onlyProblem({ STRIPE_SECRET_KEY: undefined })).toMatch(
      /^CARD_PROVIDER is not set and STRIPE_SECRET_KEY is empty.*CARD_PROVIDER=sandbox/,
    );
    expect(problemsWith({ STRIPE_SECRET_KEY: undefined, CARD_PROVIDER: 'sandbox' })).toEqual([]);
    expect(problemsWith({ CARD_PROVIDER: 'stripe' })).toEqual([]);
  });

  it('refuses a Stripe test-mode key unless ALLOW_STRIPE_TEST_KEY=true', () => {
    expect(onlyProblem({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toMatch(
      /^STRIPE_SECRET_KEY is a Stripe test-mode key.*ALLOW_STRIPE_TEST_KEY=true/,
    );
    expect(onlyProblem({ STRIPE_SECRET_KEY: 'rk_test_abc' })).toMatch(/^STRIPE_SECRET_KEY/);
    expect(problemsWith({ STRIPE_SECRET_KEY: 'sk_test_abc', ALLOW_STRIPE_TEST_KEY: 'true' })).toEqual([]);
  });

  it('refuses CARD_PROVIDER=stripe without a key everywhere, not only in production', () => {
    expect(() => loadConfig({ CARD_PROVIDER: 'stripe' })).toThrow(
      /CARD_PROVIDER: is stripe but STRIPE_SECRET_KEY is not set/,
    );
    expect(() => loadConfig({ CARD_PROVIDER: 'paypal' })).toThrow(/CARD_PROVIDER/);
  });

  it("refuses the local demo's collection account (deposits would send customers' money to it), naming each variable still the demo's", () => {
    const demo = {
      COLLECTION_ACCOUNT_NAME: undefined,
      COLLECTION_ACCOUNT_NUMBER: undefined,
      COLLECTION_IFSC: undefined,
      COLLECTION_UPI_ID: undefined,
    };
    expect(onlyProblem(demo)).toMatch(
      /^COLLECTION_ACCOUNT_NUMBER, COLLECTION_IFSC, and COLLECTION_UPI_ID are still the local demo's collection account.*: set COLLECTION_ACCOUNT_NAME, COLLECTION_ACCOUNT_NUMBER, COLLECTION_IFSC and COLLECTION_UPI_ID to the wallet's own collection account$/,
    );
    // Set explicitly to the demo's values, each is refused on its own.
    expect(onlyProblem({ COLLECTION_ACCOUNT_NUMBER: '50200012345678' })).toMatch(/^COLLECTION_ACCOUNT_NUMBER is still/);
    expect(onlyProblem({ COLLECTION_IFSC: 'WLTB0000001' })).toMatch(/^COLLECTION_IFSC is still/);
    expect(onlyProblem({ COLLECTION_UPI_ID: 'rupeewallet@upi' })).toMatch(/^COLLECTION_UPI_ID is still/);
    // The name identifies no account: the operator's to choose.
    expect(problemsWith({ COLLECTION_ACCOUNT_NAME: undefined })).toEqual([]);
    // Only a process that serves the API shows the account.
    expect(problemsWith(demo, 'worker')).toEqual([]);
    expect(problemsWith(demo, 'cli')).toEqual([]);
    expect(onlyProblem(demo, 'api')).toMatch(/^COLLECTION_ACCOUNT_NUMBER/);
  });

  it('refuses the outbox mailer (it prints one-time codes) unless ALLOW_OUTBOX_MAILER=true', () => {
    expect(onlyProblem({ SMTP_URL: undefined })).toMatch(
      /^SMTP_URL is not set.*one-time codes.*ALLOW_OUTBOX_MAILER=true/,
    );
    expect(problemsWith({ SMTP_URL: undefined, ALLOW_OUTBOX_MAILER: 'true' })).toEqual([]);
  });

  it("refuses .env.example's SMTP_URL placeholder password; a relay without credentials is the operator's choice", () => {
    expect(onlyProblem({ SMTP_URL: 'smtp://apikey:change-me-smtp-password@smtp.your-provider.example:587' })).toMatch(
      /^SMTP_URL holds a placeholder password/,
    );
    expect(problemsWith({ SMTP_URL: 'smtp://relay.internal:25' })).toEqual([]);
  });

  it('requires JWT_SECRET: a generated one would differ per container', () => {
    expect(onlyProblem({ JWT_SECRET: undefined })).toMatch(/^JWT_SECRET is not set.*openssl rand/);
  });

  it('refuses a JWT_SECRET that is a known placeholder or an obvious pattern (regression: the compose default let anyone forge tokens)', () => {
    for (const weak of [
      'change-me-to-a-long-random-secret-of-32-chars',
      'change-me-jwt-secret-from-openssl-rand-base64-48',
      'a'.repeat(64),
      'abcabcabcabcabcabcabcabcabcabcabcabc',
      'CHANGEME-please-0123456789-0123456789',
      'this-is-an-example-secret-0123456789',
    ]) {
      expect(onlyProblem({ JWT_SECRET: weak })).toMatch(/^JWT_SECRET is a known placeholder or an obvious pattern/);
    }
  });

  it('refuses a JWT_SECRET or PIN_PEPPER shorter than 32 characters, in every mode', () => {
    expect(() => loadConfig({ ...safeEnv(), JWT_SECRET: 'short-secret' })).toThrow(
      /JWT_SECRET: must be at least 32 characters/,
    );
    expect(() => loadConfig({ PIN_PEPPER: 'x'.repeat(31) })).toThrow(/PIN_PEPPER: must be at least 32 characters/);
  });

  it('requires PIN_PEPPER: not a placeholder, not the JWT secret', () => {
    expect(onlyProblem({ PIN_PEPPER: undefined })).toMatch(/^PIN_PEPPER is not set/);
    expect(onlyProblem({ PIN_PEPPER: 'change-me-pin-pepper-from-openssl-rand-base64-48' })).toMatch(
      /^PIN_PEPPER is a known placeholder/,
    );
    const shared = secret();
    expect(onlyProblem({ JWT_SECRET: shared, PIN_PEPPER: shared })).toMatch(/^PIN_PEPPER equals JWT_SECRET/);
  });

  it('refuses a placeholder ADMIN_PASSWORD (the unset case depends on the database: ensureFirstAdmin)', () => {
    expect(onlyProblem({ ADMIN_PASSWORD: 'change-me-admin-password' })).toMatch(/^ADMIN_PASSWORD is a placeholder/);
    expect(problemsWith({ ADMIN_PASSWORD: undefined })).toEqual([]);
    // admin:create (a cli process) would otherwise give a new admin the placeholder as its password.
    expect(onlyProblem({ ADMIN_PASSWORD: 'change-me-admin-password' }, 'cli')).toMatch(/^ADMIN_PASSWORD/);
  });

  it('lists every problem at once, each starting with its variable', () => {
    const problems = productionProblems(loadConfig({ NODE_ENV: 'production' }));
    expect(problems.map(variableOf)).toEqual([
      'DATABASE_URL',
      'CARD_PROVIDER',
      'COLLECTION_ACCOUNT_NUMBER',
      'SMTP_URL',
      'JWT_SECRET',
      'PIN_PEPPER',
    ]);
  });

  it('asks each process only for what it uses: cards and the collection account on the API, mail on the worker, secrets on both, the database everywhere', () => {
    const unsafe = { NODE_ENV: 'production' };
    const variables = (role: Parameters<typeof productionProblems>[1]) =>
      productionProblems(loadConfig(unsafe), role).map(variableOf);
    expect(variables('api')).toEqual([
      'DATABASE_URL',
      'CARD_PROVIDER',
      'COLLECTION_ACCOUNT_NUMBER',
      'JWT_SECRET',
      'PIN_PEPPER',
    ]);
    expect(variables('worker')).toEqual(['DATABASE_URL', 'SMTP_URL', 'JWT_SECRET', 'PIN_PEPPER']);
    expect(variables('cli')).toEqual(['DATABASE_URL']);
  });

  it('treats an empty variable as unset (docker-compose passes optional ones as ${VAR:-})', () => {
    expect(onlyProblem({ JWT_SECRET: '' })).toMatch(/^JWT_SECRET is not set/);
    expect(
      loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: '', CARD_PROVIDER: '' }).STRIPE_SECRET_KEY,
    ).toBeUndefined();
  });

  it('production mode is NODE_ENV=production exactly, read once into config.PRODUCTION', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).PRODUCTION).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).PRODUCTION).toBe(false);
    expect(loadConfig({}).PRODUCTION).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' })).not.toHaveProperty('NODE_ENV');
  });

  it('assertSafeForProduction throws one ProductionRefusal whose message lists every problem', () => {
    const config = loadConfig({ NODE_ENV: 'production' });
    expect(() => assertSafeForProduction(config, 'api')).toThrow(ProductionRefusal);
    expect(() => assertSafeForProduction(config, 'api')).toThrow(
      /^Refusing to start in production mode \(NODE_ENV=production\):\n  - DATABASE_URL/,
    );
  });
});

describe('runtimePrivilegeRefusals (checked by the API and the worker right after connecting)', () => {
  it('in production refuses the owner (a superuser here), naming DATABASE_URL and the problem; the runtime login passes', async () => {
    const owner = await createTestDatabase<unknown>({ as: 'owner', maxConnections: 1 });
    const runtime = await createTestDatabase<unknown>({ maxConnections: 1 });
    try {
      const production = { PRODUCTION: true };
      const refusals = await runtimePrivilegeRefusals(production, owner.db, installation.schemaPolicies);
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) expect(refusal).toMatch(/^DATABASE_URL: \S+ /);
      expect(refusals.join('\n')).toMatch(/is a superuser/);
      await expect(assertRuntimePrivileges(production, owner.db, installation.schemaPolicies)).rejects.toThrow(
        ProductionRefusal,
      );
      expect(await runtimePrivilegeRefusals(production, runtime.db, installation.schemaPolicies)).toEqual([]);
      await assertRuntimePrivileges(production, runtime.db, installation.schemaPolicies);
      // A developer's start is left as it was: their database, their roles.
      expect(await runtimePrivilegeRefusals({ PRODUCTION: false }, owner.db, installation.schemaPolicies)).toEqual([]);
    } finally {
      await owner.drop();
      await runtime.drop();
    }
  });
});

describe('isPlaceholderSecret', () => {
  it('accepts what the documented commands generate', () => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      expect(isPlaceholderSecret(randomBytes(48).toString('base64'))).toBe(false);
      expect(isPlaceholderSecret(randomBytes(32).toString('hex'))).toBe(false);
    }
  });
});
