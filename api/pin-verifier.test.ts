/**
 * The peppered PIN verifier over HTTP and in the database: a right PIN is answered without
 * bcrypt and without a write, a wrong one is counted, a PIN change or reset invalidates the
 * old verifier, a verifier made with another pepper is refused (and a leaked one cannot be
 * brute-forced without the pepper), a rotated pepper falls back to bcrypt once, and the
 * spec's browser-hashed PIN is accepted at cost 12 only.
 */
import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { pinKeysFrom, pinVerifier } from '../identity/pin-verifier.ts';
import { identityDb } from '../identity/users.ts';
import {
  TEST_PIN_PEPPER,
  TEST_SECRET,
  VALID_REGISTRATION,
  codeFrom,
  registeredUser,
  startHarness,
  type Harness,
} from '../test/app-harness.ts';

let h: Harness;
const keys = pinKeysFrom(TEST_PIN_PEPPER);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const bearer = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });

function tryPin(token: string | undefined, pin: string) {
  return h.call({
    method: 'POST',
    url: '/api/users/verify-transaction-pin',
    headers: bearer(token),
    payload: { transactionPin: pin },
  });
}

async function pinRow(userId: string) {
  const { rows } = await sql<{
    xmin: string;
    pin_hash: string | null;
    pin_verifier: Buffer | null;
    pin_verifier_key: string | null;
    failed_pin_attempts: number;
  }>`
    select xmin::text as xmin, pin_hash, pin_verifier, pin_verifier_key, failed_pin_attempts from identity.users where id = ${userId}`.execute(
    h.database.db,
  );
  const row = rows[0];
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

describe('the verifier', () => {
  it('is written at registration with a plain PIN; a right PIN then costs no write; a wrong one is counted and the next right one clears it', async () => {
    const user = await registeredUser(h, 'fast@example.in');
    const before = await pinRow(user.id);
    expect(before.pin_verifier?.equals(pinVerifier(keys, user.id, before.pin_hash ?? '', '1234'))).toBe(true);
    expect(before.pin_verifier_key).toBe(keys.keyId);
    for (let check = 0; check < 3; check++) expect((await tryPin(user.token, '1234')).statusCode).toBe(200);
    // xmin changes with every write to the row: none happened.
    expect((await pinRow(user.id)).xmin).toBe(before.xmin);
    expect((await tryPin(user.token, '4321')).json()).toMatchObject({ code: 'invalid_pin' });
    expect((await pinRow(user.id)).failed_pin_attempts).toBe(1);
    expect((await tryPin(user.token, '1234')).statusCode).toBe(200);
    expect((await pinRow(user.id)).failed_pin_attempts).toBe(0);
  });

  it('is invalidated by a PIN change and by a PIN reset: the old PIN stops working, the new one has a verifier', async () => {
    const user = await registeredUser(h, 'changer@example.in');
    const original = await pinRow(user.id);
    const changed = await h.call({
      method: 'POST',
      url: '/api/users/update-transaction-pin',
      headers: bearer(user.token),
      payload: { currentPin: '1234', newPin: '5678' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const afterChange = await pinRow(user.id);
    expect(afterChange.pin_verifier?.equals(original.pin_verifier ?? Buffer.alloc(0))).toBe(false);
    expect((await tryPin(user.token, '1234')).json()).toMatchObject({ code: 'invalid_pin' });
    expect((await tryPin(user.token, '5678')).statusCode).toBe(200);

    await h.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email: user.email } });
    const code = codeFrom(await h.waitForMail(user.email, (mail) => /reset code/.test(mail.raw)));
    await h.call({ method: 'POST', url: '/api/users/verify-pin-reset-otp', payload: { email: user.email, otp: code } });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/users/reset-transaction-pin',
          payload: { email: user.email, otp: code, newPin: '246810' },
        })
      ).statusCode,
    ).toBe(200);
    const afterReset = await pinRow(user.id);
    expect(afterReset.pin_verifier?.equals(pinVerifier(keys, user.id, afterReset.pin_hash ?? '', '246810'))).toBe(true);
    // The verifier of the old hash matches nothing now.
    expect(
      pinVerifier(keys, user.id, afterReset.pin_hash ?? '', '5678').equals(afterChange.pin_verifier ?? Buffer.alloc(0)),
    ).toBe(false);
    expect((await tryPin(user.token, '5678')).json()).toMatchObject({ code: 'invalid_pin' });
    expect((await tryPin(user.token, '246810')).statusCode).toBe(200);
  });

  it('made with another pepper is refused, even for the PIN it was made from', async () => {
    const user = await registeredUser(h, 'tampered@example.in');
    const row = await pinRow(user.id);
    // Someone with write access to the database plants a verifier for a PIN of their choice.
    const planted = pinVerifier(
      pinKeysFrom('an-attacker-chosen-pepper-of-enough-length'),
      user.id,
      row.pin_hash ?? '',
      '0000',
    );
    await identityDb(h.database.db)
      .updateTable('identity.users')
      .set({ pin_verifier: planted, pin_verifier_key: keys.keyId })
      .where('id', '=', user.id)
      .execute();
    expect((await tryPin(user.token, '0000')).json()).toMatchObject({ code: 'invalid_pin' });
  });

  it('leaked without the pepper, cannot be brute-forced: no 4-digit PIN matches under a guessed pepper', async () => {
    const user = await registeredUser(h, 'leaked@example.in', { pin: '7391' });
    const row = await pinRow(user.id);
    const guessed = pinKeysFrom('wallet-pin-pepper-guess-0123456789abcdef');
    const matches: string[] = [];
    for (let candidate = 0; candidate < 10_000; candidate++) {
      const pin = String(candidate).padStart(4, '0');
      if (pinVerifier(guessed, user.id, row.pin_hash ?? '', pin).equals(row.pin_verifier ?? Buffer.alloc(0)))
        matches.push(pin);
    }
    expect(matches).toEqual([]);
    // With the pepper it would be found at once: the test above is not trivially true.
    expect(pinVerifier(keys, user.id, row.pin_hash ?? '', '7391').equals(row.pin_verifier ?? Buffer.alloc(0))).toBe(
      true,
    );
  });

  it('after a pepper rotation, the next right PIN is checked by bcrypt once and gets a verifier under the new pepper', async () => {
    const user = await registeredUser(h, 'rotated@example.in');
    const rotated = 'the-next-pin-pepper-after-a-rotation-000001';
    const app = await buildApp({
      config: {
        publicUrl: 'http://wallet.test:3000',
        corsOrigins: [],
        logLevel: 'silent',
        jwtSecret: TEST_SECRET,
        pinPepper: rotated,
        rateLimit: { windowMs: 60_000, max: 1_000, authMax: 1_000 },
      },
      db: h.database.db,
      pool: h.database.pool,
      boss: h.boss,
      ledger: h.ledger,
      balances: { ofAccount: async () => 0n },
    });
    try {
      const check = (pin: string) =>
        app.inject({
          method: 'POST',
          url: '/api/users/verify-transaction-pin',
          headers: bearer(user.token),
          payload: { transactionPin: pin },
        });
      expect((await check('9999')).json()).toMatchObject({ code: 'invalid_pin' });
      expect((await check('1234')).statusCode).toBe(200);
      const row = await pinRow(user.id);
      expect(row.pin_verifier_key).toBe(pinKeysFrom(rotated).keyId);
      expect(row.pin_verifier?.equals(pinVerifier(pinKeysFrom(rotated), user.id, row.pin_hash ?? '', '1234'))).toBe(
        true,
      );
    } finally {
      await app.close();
    }
  });
});

describe("the spec's browser-hashed PIN", () => {
  it('is accepted at cost 12 exactly (a client-chosen cost could stall a PIN thread for days), checked by bcrypt once, then by its verifier', async () => {
    for (const cost of [4, 10, 11, 13, 31]) {
      // A real hash of cost 31 would take days to make; its text is enough to be refused.
      const hash = cost <= 11 ? bcrypt.hashSync('1234', cost) : `$2b$${cost}$${'a'.repeat(53)}`;
      const refused = await h.call({
        method: 'POST',
        url: '/api/users/register',
        payload: { ...VALID_REGISTRATION, email: `cost${cost}@example.in`, transactionPin: hash },
      });
      expect(refused.statusCode, `cost ${cost}`).toBe(400);
    }
    const user = await registeredUser(h, 'browser@example.in', { pin: bcrypt.hashSync('2580', 12) });
    expect((await pinRow(user.id)).pin_verifier).toBeNull();
    expect((await tryPin(user.token, '2580')).statusCode).toBe(200);
    const row = await pinRow(user.id);
    expect(row.pin_verifier?.equals(pinVerifier(keys, user.id, row.pin_hash ?? '', '2580'))).toBe(true);
    expect((await tryPin(user.token, '2580')).statusCode).toBe(200);
    expect((await pinRow(user.id)).xmin).toBe(row.xmin);
  });
});
