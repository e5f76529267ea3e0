/**
 * Guesses and registrations in parallel: the row locks must keep the counts exact, so a
 * burst of requests cannot try more PINs or codes than the limits allow, and one e-mail
 * cannot get two accounts. And simultaneous sessions and payments, whose users, PIN rows and
 * payees are read together in one statement (api/auth/authenticate.ts,
 * identity/transaction-pin.ts): each request still gets its own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityDb } from '../identity/users.ts';
import { VALID_REGISTRATION, codeFrom, registeredUser, startHarness, type Harness } from '../test/app-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('in parallel', () => {
  it('10 simultaneous wrong PINs: 4 counted as wrong, then locked; the right PIN is locked out too', async () => {
    const user = await registeredUser(h, 'burst-pin@example.com');
    const attempt = (pin: string) =>
      h.call({
        method: 'POST',
        url: '/api/users/verify-transaction-pin',
        headers: { authorization: `Bearer ${user.token}` },
        payload: { transactionPin: pin },
      });
    const responses = await Promise.all(Array.from({ length: 10 }, () => attempt('9999')));
    const codes = responses.map((response) => response.json().code).sort();
    expect(codes.filter((code) => code === 'invalid_pin')).toHaveLength(4);
    expect(codes.filter((code) => code === 'PIN_LOCKED')).toHaveLength(6);
    expect((await attempt('1234')).json().code).toBe('PIN_LOCKED');
  });

  it('10 simultaneous wrong codes: at most 5 tries count, then the code is void', async () => {
    const user = await registeredUser(h, 'burst-otp@example.com');
    await h.call({ method: 'POST', url: '/api/users/send-password-reset-otp', payload: { email: user.email } });
    const code = codeFrom(await h.waitForMail(user.email, (mail) => /reset code/.test(mail.raw)));
    const wrong = code === '000000' ? '111111' : '000000';
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call({
          method: 'POST',
          url: '/api/users/verify-password-reset-otp',
          payload: { email: user.email, otp: wrong },
        }),
      ),
    );
    const codes = responses.map((response) => response.json().code);
    expect(codes.filter((value) => value === 'otp_invalid')).toHaveLength(4);
    expect(codes.filter((value) => value === 'otp_attempts_exceeded')).toHaveLength(6);
    const right = await h.call({
      method: 'POST',
      url: '/api/users/verify-password-reset-otp',
      payload: { email: user.email, otp: code },
    });
    expect(right.json().code).toBe('otp_attempts_exceeded');
  });

  it('two registrations of one e-mail at once: one account, one 409', async () => {
    const register = (email: string) =>
      h.call({ method: 'POST', url: '/api/users/register', payload: { ...VALID_REGISTRATION, email } });
    const responses = await Promise.all([
      register('race@example.com'),
      register('RACE@example.com'),
      register('Race@Example.com'),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
    const rows = await identityDb(h.database.db)
      .selectFrom('identity.users')
      .select('id')
      .where('email', '=', 'race@example.com')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('simultaneous requests of several users, their sessions read together: each gets its own user, a suspended one is refused', async () => {
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await registeredUser(h, `together-${i}@example.com`));
    const suspended = users[4];
    await identityDb(h.database.db)
      .updateTable('identity.users')
      .set({ is_verified: false })
      .where('email', '=', suspended?.email ?? '')
      .execute();
    const callers = [...users, ...users, ...users];
    const replies = await Promise.all(
      callers.map((user) =>
        h.call({
          method: 'POST',
          url: '/api/users/get-user-info',
          headers: { authorization: `Bearer ${user.token ?? ''}` },
        }),
      ),
    );
    const answers = replies.map((reply) => {
      const body = reply.json() as { code?: string; data?: { _id: string } };
      return body.code ?? body.data?._id;
    });
    expect(answers).toEqual(callers.map((user) => (user === suspended ? 'USER_NOT_VERIFIED' : user.id)));
  });

  it('simultaneous payments of several users, their PIN rows and payees read together: each checked against its own', async () => {
    const pins = ['1357', '2468', '1470', '2581'];
    const payers = [];
    for (const [i, pin] of pins.entries())
      payers.push(await registeredUser(h, `pins-together-${i}@example.com`, { pin }));
    const payee = await registeredUser(h, 'pins-together-payee@example.com');
    const suspended = await registeredUser(h, 'pins-together-suspended@example.com');
    await identityDb(h.database.db)
      .updateTable('identity.users')
      .set({ is_verified: false })
      .where('id', '=', suspended.id)
      .execute();
    // The payee and the PIN are checked before the ledger, which then refuses an unfunded
    // payer: insufficient_funds means both checks passed.
    const attempts = payers.flatMap((payer, i) => [
      { payer, pin: pins[i] ?? '', receiver: payee.id, expected: 'insufficient_funds' },
      { payer, pin: pins[i] ?? '', receiver: suspended.id, expected: 'unknown_account' },
      { payer, pin: pins[(i + 1) % pins.length] ?? '', receiver: payee.id, expected: 'invalid_pin' },
    ]);
    const replies = await Promise.all(
      attempts.map((attempt) =>
        h.call({
          method: 'POST',
          url: '/api/transactions/transfer-funds',
          headers: { authorization: `Bearer ${attempt.payer.token ?? ''}` },
          payload: { receiver: attempt.receiver, amount: 10, reference: 'together', transactionPin: attempt.pin },
        }),
      ),
    );
    expect(replies.map((reply) => reply.json().code as string)).toEqual(attempts.map((attempt) => attempt.expected));
  });
});
