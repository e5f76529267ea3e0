/**
 * Regression: docker-compose.yml shipped `JWT_SECRET: ${JWT_SECRET:-change-me-to-a-long-
 * random-secret-of-32-chars}`. The fallback passed the length check, so on any deployment
 * that did not set JWT_SECRET anyone could sign a token for any account number, admins
 * included. Now compose has no default, production mode refuses that placeholder, and an
 * API with a real secret answers 401 to a token forged with it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveJwtSecret } from '../identity/jwt-secret.ts';
import { ADMIN, startHarness, type Harness } from '../test/app-harness.ts';
import { identityDb } from '../identity/users.ts';
import { loadConfig } from '../platform/config.ts';
import { productionProblems } from '../platform/production.ts';
import { containerEnvironment, editedDotEnv, MissingMandatoryVariable, readComposeFile } from '../test/compose.ts';

const OLD_COMPOSE_JWT_SECRET = 'change-me-to-a-long-random-secret-of-32-chars';

/** An HS256 token as @fastify/jwt signs them ({ sub, sv }), made by hand: what an attacker would do. */
function signToken(secret: string, claims: { sub: string; sv: number }): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ ...claims, iat: now, exp: now + 3600 })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

type StartOutcome =
  | { refusedBy: 'docker compose'; variable: string }
  | { refusedBy: 'production check'; problems: string[] }
  | { jwtSecret: string };

/** How the API container of docker-compose.yml starts with this .env: compose's interpolation, the image's ENV, the startup check, the secret. */
async function startApiContainer(dotEnv: Record<string, string | undefined>): Promise<StartOutcome> {
  let environment: Record<string, string>;
  try {
    environment = containerEnvironment(readComposeFile(), 'api', dotEnv);
  } catch (error) {
    if (error instanceof MissingMandatoryVariable) return { refusedBy: 'docker compose', variable: error.variable };
    throw error;
  }
  const config = loadConfig({ ...environment, DATA_DIR: '/nonexistent-data-dir' });
  const problems = productionProblems(config, 'api');
  if (problems.length > 0) return { refusedBy: 'production check', problems };
  return { jwtSecret: await resolveJwtSecret(config) };
}

let harness: Harness | undefined;
let admin: { sub: string; sv: number };

async function startApi(jwtSecret: string): Promise<Harness> {
  await harness?.close();
  harness = await startHarness({ jwtSecret });
  const row = await identityDb(harness.database.db)
    .selectFrom('identity.users')
    .select(['id', 'session_version'])
    .where('email', '=', ADMIN.email)
    .executeTakeFirstOrThrow();
  admin = { sub: row.id, sv: row.session_version };
  return harness;
}

const listUsers = (api: Harness, token: string) =>
  api.call({ method: 'GET', url: '/api/users/get-all-users', headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  await startApi(randomBytes(48).toString('base64'));
});
afterAll(async () => {
  await harness?.close();
});

describe('regression: a token forged with the old docker-compose JWT_SECRET default', () => {
  it('gets no API started from docker-compose.yml with JWT_SECRET removed from .env to accept it', async () => {
    const outcome = await startApiContainer({ ...editedDotEnv(), JWT_SECRET: undefined });
    if ('jwtSecret' in outcome) {
      // Whatever secret such a container ends up with, a forged admin token must not pass.
      const api = await startApi(outcome.jwtSecret);
      expect((await listUsers(api, signToken(OLD_COMPOSE_JWT_SECRET, admin))).statusCode).toBe(401);
    } else {
      expect(outcome).toEqual({ refusedBy: 'docker compose', variable: 'JWT_SECRET' });
    }
  });

  it('is refused as JWT_SECRET by the production check, should an operator set it by hand', async () => {
    const outcome = await startApiContainer({ ...editedDotEnv(), JWT_SECRET: OLD_COMPOSE_JWT_SECRET });
    expect(outcome).toMatchObject({
      refusedBy: 'production check',
      problems: [expect.stringMatching(/^JWT_SECRET is a known placeholder/)],
    });
  });

  it('answers 401 on an API with a real secret, while the same claims signed with that secret are accepted', async () => {
    const outcome = await startApiContainer(editedDotEnv());
    if (!('jwtSecret' in outcome)) throw new Error(`a deployable .env was refused: ${JSON.stringify(outcome)}`);
    const api = await startApi(outcome.jwtSecret);
    const forged = await listUsers(api, signToken(OLD_COMPOSE_JWT_SECRET, admin));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ success: false });
    // The control: the forgery was well made, only the secret was wrong.
    expect((await listUsers(api, signToken(outcome.jwtSecret, admin))).statusCode).toBe(200);
  });
});
