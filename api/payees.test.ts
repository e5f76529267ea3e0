/**
 * Paying a mobile number or a handle, and recent payees (issue 43), over HTTP on a real
 * Postgres with the projections running. A lookup answers a name and a masked echo of what was
 * typed, never an id; an unknown, suspended or ambiguous mobile number or handle answers exactly
 * what verify-account answers for an unknown account number; lookups share verify-account's
 * budget; the payment finds the payee again on the server.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLE_RULE_MESSAGE, PAYEE_INVALID_MESSAGE } from '../contracts/payees.ts';
import {
  ADMIN,
  VALID_REGISTRATION,
  fundByUpi,
  signIn,
  startHarness,
  startProjectedHarness,
  verifierToken,
  type Harness,
} from '../test/app-harness.ts';

interface Person {
  id: string;
  token: string;
}

let harness: Harness;
let adminToken: string;
let asha: Person;
let ravi: Person;
let meena: Person;
let sunil: Person;

function call(token: string | undefined, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return harness.call({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** Registers, activates (as the verifier) and signs in someone with their own name and mobile number. */
async function person(email: string, firstName: string, lastName: string, contactNo: string): Promise<Person> {
  const registered = await call(undefined, 'POST', '/api/users/register', {
    ...VALID_REGISTRATION,
    email,
    firstName,
    lastName,
    contactNo,
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const users = await call(adminToken, 'GET', '/api/users/get-all-users');
  const id = (users.json().data as { _id: string; email: string }[]).find((user) => user.email === email)?._id ?? '';
  const activated = await call(await verifierToken(harness), 'POST', '/api/users/update-user-verified-status', {
    selectedUser: id,
    isVerified: true,
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return { id, token: await signIn(harness, email, VALID_REGISTRATION.password) };
}

async function setStatus(user: Person, isVerified: boolean): Promise<void> {
  const changed = await call(await verifierToken(harness), 'POST', '/api/users/update-user-verified-status', {
    selectedUser: user.id,
    isVerified,
  });
  expect(changed.statusCode, changed.body).toBe(200);
}

function findPayee(token: string, payee: string) {
  return call(token, 'POST', '/api/transactions/find-payee', { payee });
}

async function headBalance(user: Person): Promise<number> {
  const { rows } = await sql<{ balance: bigint }>`select balance from ledger.accounts where id = ${user.id}`.execute(
    harness.database.db,
  );
  return Number(rows[0]?.balance ?? 0n) / 100;
}

beforeAll(async () => {
  harness = await startProjectedHarness({ readYourWritesTimeoutMs: 30_000 });
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  asha = await person('asha.payees@example.in', 'Asha', 'Verma', '+91 98765 11111');
  ravi = await person('ravi.payees@example.in', 'Ravi', 'Kumar', '+91 98111 22233');
  meena = await person('meena.payees@example.in', 'Meena', 'Pillai', '098222 33344');
  sunil = await person('sunil.payees@example.in', 'Sunil', 'Rao', '9833344455');
  // Two more accounts share one number: paying it could reach either, so it finds neither.
  await person('twin.one@example.in', 'Twin', 'One', '+91 97000 00001');
  await person('twin.two@example.in', 'Twin', 'Two', '97000-00001');
  await fundByUpi(harness, asha.token, adminToken, 5_000);
  for (const [user, handle] of [
    [ravi, 'ravi.k'],
    [sunil, 'sunil@wallet'],
  ] as const) {
    const chosen = await call(user.token, 'POST', '/api/users/set-handle', { handle });
    expect(chosen.statusCode, chosen.body).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await harness.close();
});

describe('handles: chosen once, unique, validated by the contract', () => {
  it('is saved as name@wallet and shown in the user record and the receive QR', async () => {
    const info = await call(ravi.token, 'POST', '/api/users/get-user-info', {});
    expect((info.json().data as { handle: string }).handle).toBe('ravi.k@wallet');
  });

  it('cannot be changed, nor taken by someone else; the same one again is fine', async () => {
    const again = await call(ravi.token, 'POST', '/api/users/set-handle', { handle: 'Ravi.K@wallet' });
    expect(again.statusCode, again.body).toBe(200);
    const other = await call(ravi.token, 'POST', '/api/users/set-handle', { handle: 'ravi2' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ success: false, code: 'handle_already_set' });
    const taken = await call(meena.token, 'POST', '/api/users/set-handle', { handle: 'ravi.k@wallet' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ success: false, message: 'This handle is already taken' });
  });

  it('refuses a malformed handle with the rule, and changes nothing', async () => {
    for (const handle of ['ab', '.dot', 'asha@gmail', 'has space', 'x'.repeat(21)]) {
      const refused = await call(meena.token, 'POST', '/api/users/set-handle', { handle });
      expect(refused.statusCode, handle).toBe(400);
      expect(refused.json()).toMatchObject({ success: false, message: HANDLE_RULE_MESSAGE });
    }
    const info = await call(meena.token, 'POST', '/api/users/get-user-info', {});
    expect((info.json().data as { handle: string | null }).handle).toBeNull();
  });
});

describe('find-payee', () => {
  it('finds by mobile number in any common spelling: the name and the number masked, no id', async () => {
    for (const typed of ['+91 98111 22233', '09811122233', '9811122233', '98111-22233']) {
      const found = await findPayee(asha.token, typed);
      expect(found.statusCode, `${typed}: ${found.body}`).toBe(200);
      expect(found.json().data).toEqual({
        name: 'Ravi Kumar',
        kind: 'mobile',
        shown: 'XXXXXX2233',
        isOwnAccount: false,
      });
      expect(found.body).not.toContain(ravi.id);
    }
  });

  it('finds by handle, with or without @wallet, in any case', async () => {
    for (const typed of ['ravi.k@wallet', 'RAVI.K@Wallet']) {
      const found = await findPayee(asha.token, typed);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().data).toEqual({
        name: 'Ravi Kumar',
        kind: 'handle',
        shown: 'ravi.k@wallet',
        isOwnAccount: false,
      });
      expect(found.body).not.toContain(ravi.id);
    }
  });

  it('finds by account number too, and says when it is your own', async () => {
    const found = await findPayee(asha.token, asha.id);
    expect(found.json().data).toMatchObject({ name: 'Asha Verma', kind: 'account', isOwnAccount: true });
  });

  it('an unknown, shared or suspended mobile number or handle reveals exactly what an unknown account number does', async () => {
    const unknownAccount = await call(asha.token, 'POST', '/api/transactions/verify-account', {
      receiver: 'no-such-account',
    });
    expect(unknownAccount.statusCode).toBe(404);
    const expected = { status: unknownAccount.statusCode, body: unknownAccount.json() };
    await setStatus(sunil, false);
    try {
      for (const typed of ['9999999999', 'nobody@wallet', '97000 00001', '9833344455', 'sunil@wallet']) {
        const found = await findPayee(asha.token, typed);
        expect({ status: found.statusCode, body: found.json() }, typed).toEqual(expected);
      }
    } finally {
      await setStatus(sunil, true);
    }
    // Reactivated, the same lookups find him again: the 404 above was the suspension.
    expect((await findPayee(asha.token, 'sunil@wallet')).statusCode).toBe(200);
  });

  it('refuses what is neither an account number, a mobile number nor a handle', async () => {
    for (const typed of ['asha@gmail', '+98765', 'not an id!']) {
      const refused = await findPayee(asha.token, typed);
      expect(refused.statusCode, typed).toBe(400);
      expect(refused.json()).toMatchObject({ success: false, message: PAYEE_INVALID_MESSAGE });
    }
  });
});

describe('transfer-to-payee', () => {
  const pay = (payee: string, amount: number, reference: string, transactionPin = '1234') =>
    call(asha.token, 'POST', '/api/transactions/transfer-to-payee', { payee, amount, reference, transactionPin });

  it('pays a handle and a mobile number: the server finds the account', async () => {
    const before = { asha: await headBalance(asha), ravi: await headBalance(ravi), meena: await headBalance(meena) };
    const byHandle = await pay('ravi.k@wallet', 250, 'dinner by handle');
    expect(byHandle.statusCode, byHandle.body).toBe(200);
    expect(byHandle.json()).toMatchObject({ success: true, data: { sender: asha.id, receiver: ravi.id, amount: 250 } });
    const byMobile = await pay('+91 98222 33344', 100.5, 'books by mobile');
    expect(byMobile.statusCode, byMobile.body).toBe(200);
    expect(await headBalance(asha)).toBe(before.asha - 350.5);
    expect(await headBalance(ravi)).toBe(before.ravi + 250);
    expect(await headBalance(meena)).toBe(before.meena + 100.5);
  });

  it('an unknown or suspended payee is the account lookup 404, and no money moves', async () => {
    const before = await headBalance(asha);
    await setStatus(sunil, false);
    try {
      for (const payee of ['nobody@wallet', 'sunil@wallet', '9999999999']) {
        const refused = await pay(payee, 10, 'nowhere');
        expect(refused.statusCode, payee).toBe(404);
        expect(refused.json()).toMatchObject({ success: false, message: 'Account not found' });
      }
    } finally {
      await setStatus(sunil, true);
    }
    expect(await headBalance(asha)).toBe(before);
  });

  it('keeps the transfer rules: a wrong PIN and paying yourself are refused', async () => {
    const before = await headBalance(asha);
    expect((await pay('ravi.k@wallet', 10, 'wrong pin', '9999')).statusCode).toBe(400);
    const self = await pay('+91 98765 11111', 10, 'to myself');
    expect(self.json()).toMatchObject({ success: false, message: 'Cannot transfer to your own account' });
    expect(await headBalance(asha)).toBe(before);
  });
});

describe('recent payees', () => {
  it('are the people the user paid, newest first, each once; never deposits or money received', async () => {
    await call(asha.token, 'POST', '/api/transactions/transfer-funds', {
      receiver: ravi.id,
      amount: 5,
      reference: 'again to ravi',
      transactionPin: '1234',
    });
    const recent = await call(asha.token, 'GET', '/api/transactions/recent-payees');
    expect(recent.statusCode, recent.body).toBe(200);
    const payees = recent.json().data as { accountNumber: string; name: string; lastPaidAt: string }[];
    expect(payees.map(({ accountNumber, name }) => ({ accountNumber, name }))).toEqual([
      { accountNumber: ravi.id, name: 'Ravi Kumar' },
      { accountNumber: meena.id, name: 'Meena Pillai' },
    ]);
    const received = await call(ravi.token, 'GET', '/api/transactions/recent-payees');
    expect(received.json().data).toEqual([]);
  });
});

describe('the lookups share the account lookup budget', () => {
  let limited: Harness;
  beforeAll(async () => {
    // authMax 3: account lookups may be made 9 times per window, whichever route makes them.
    limited = await startHarness({ rateLimit: { windowMs: 60_000, max: 1_000, authMax: 3 } });
  }, 60_000);
  afterAll(async () => {
    await limited.close();
  });

  it('verify-account and find-payee count together, and both are refused past the limit', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const url = attempt % 2 === 0 ? '/api/transactions/verify-account' : '/api/transactions/find-payee';
      const payload = attempt % 2 === 0 ? { receiver: `someone-${attempt}` } : { payee: `98765${attempt}0000` };
      statuses.push((await limited.call({ method: 'POST', url, payload, remoteAddress: '10.43.0.1' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    const next = await limited.call({
      method: 'POST',
      url: '/api/transactions/find-payee',
      payload: { payee: 'ravi@wallet' },
      remoteAddress: '10.43.0.1',
    });
    expect(next.statusCode).toBe(429);
  });
});
