/**
 * Routes check their input with their zod schemas in Fastify's validation step
 * (api/request-validation.ts), and answer exactly as when each handler parsed its own input:
 * the guard first (a request without a session, or a non-admin on an admin route, is refused
 * as such whatever it sends), then a 400 `validation_failed` with the schema's first message
 * - for a missing body and a JSON null body each in zod's own words - and a checked body
 * reaches the handler parsed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { firstMessage } from '../contracts/fields.ts';
import { transferSchema } from '../contracts/transactions.ts';
import { registeredUser, startHarness, type Harness } from '../test/app-harness.ts';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  token = (await registeredUser(h, 'meera.validation@example.in')).token ?? '';
});

afterAll(async () => {
  await h?.close();
});

/** The reply a handler's own `schema.parse(input)` gave for this input. */
function refusal(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('the input was meant to be refused');
  return { success: false, message: firstMessage(result.error), code: 'validation_failed' };
}

const TRANSFER = '/api/transactions/transfer-funds';

describe('request validation by the route schemas', () => {
  it('refuses a request without a session as such, whatever its body', async () => {
    const reply = await h.call({ method: 'POST', url: TRANSFER, payload: { amount: 'not money' } });
    expect(reply.statusCode).toBe(401);
  });

  it('refuses a non-admin on an admin route before reading the body', async () => {
    const reply = await h.call({
      method: 'POST',
      url: '/api/transactions/settle-deposit',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(reply.statusCode).toBe(403);
  });

  it("answers a bad body with the schema's first message", async () => {
    const reply = await h.call({
      method: 'POST',
      url: TRANSFER,
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual(refusal(transferSchema, {}));
  });

  it('tells a missing body from a JSON null body, as zod words them', async () => {
    const missing = await h.call({ method: 'POST', url: TRANSFER, headers: { authorization: `Bearer ${token}` } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(refusal(transferSchema, undefined));
    const jsonNull = await h.call({
      method: 'POST',
      url: TRANSFER,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(jsonNull.statusCode).toBe(400);
    expect(jsonNull.json()).toEqual(refusal(transferSchema, null));
  });

  it('reads a missing body as empty on a route that says so (history: every field optional)', async () => {
    const reply = await h.call({
      method: 'POST',
      url: '/api/transactions/get-all-transactions-by-user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().data).toEqual([]);
  });

  it('refuses a minPosition past a bigint with 400, never a 500 from Postgres', async () => {
    const tooLarge = '0.99999999999999999999';
    const authorization = `Bearer ${token}`;
    for (const [method, url, payload] of [
      ['POST', '/api/transactions/get-all-transactions-by-user', { minPosition: tooLarge }],
      ['GET', `/api/requests/get-all-requests-by-user?minPosition=${tooLarge}`, undefined],
    ] as const) {
      const reply = await h.call({ method, url, headers: { authorization }, payload });
      expect(reply.statusCode, `${url}: ${reply.body}`).toBe(400);
      expect(reply.json()).toMatchObject({ success: false, code: 'validation_failed' });
    }
    // The largest valid part is still a checkpoint (answered without waiting for it to be reached).
    const largest = await h.call({
      method: 'GET',
      url: '/api/requests/get-all-requests-by-user?minPosition=0.9223372036854775807',
      headers: { authorization },
    });
    expect(largest.statusCode, largest.body).toBe(200);
  });
});
