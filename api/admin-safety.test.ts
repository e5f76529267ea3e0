/**
 * One admin cannot create money for themselves: the ledger refuses an admin who takes part
 * in the movement (settling or failing their own deposit, reversing their own transfer),
 * card deposits are never settled by hand, and settlements and reversals above the approval
 * threshold wait for a second admin - counted per action, per admin and per wallet over a
 * rolling 24 hours - as does a settlement into an account the settling admin activated.
 * Also: statement CSVs open user-chosen names as text. Real Postgres, real projection
 * workers, HTTP through the real app. Wallets are funded by card (the provider settles, no
 * admin), so only the settlements a test makes count toward an admin's totals.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createAdmin } from '../identity/admin.ts';
import {
  ADMIN,
  VALID_REGISTRATION,
  codeFrom,
  registeredUser,
  signIn,
  startProjectedHarness,
  type Harness,
  requestUpiDeposit,
} from '../test/app-harness.ts';
import { tablesView } from '../platform/database.ts';
import type { LedgerTables } from '../ledger/index.ts';
import { readUntil } from '../test/wait.ts';

/** ₹1,000: above it a second admin must approve. */
const THRESHOLD_PAISE = 100_000n;

let harness: Harness;
let adminToken: string;
let asha: { id: string; token: string };
/** A user promoted to admin: has a wallet and a PIN, so it can try to deal with itself. */
let mallory: { id: string; token: string };

beforeAll(async () => {
  harness = await startProjectedHarness({
    readYourWritesTimeoutMs: 30_000,
    adminApprovalThresholdPaise: THRESHOLD_PAISE,
  });
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  asha = await user('asha@example.in');
  mallory = await promotedAdmin('mallory@example.in');
  await fund(asha, 800);
  await fund(mallory, 800);
}, 120_000);

afterAll(async () => {
  await harness.close();
});

async function user(email: string): Promise<{ id: string; token: string }> {
  const registered = await registeredUser(harness, email);
  return { id: registered.id, token: registered.token ?? '' };
}

async function post(token: string, url: string, payload: Record<string, unknown>) {
  return harness.call({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });
}

async function deposit(who: { token: string }, rupees: number): Promise<string> {
  return requestUpiDeposit(harness, who.token, rupees);
}

/** A card payment the provider confirmed: money in without any admin. */
async function fund(who: { id: string }, rupees: number): Promise<void> {
  const id = randomUUID();
  await harness.ledger.completeCardDeposit(
    {
      depositId: `card-${id}`,
      walletId: who.id,
      amountPaise: BigInt(rupees) * 100n,
      reference: 'card top up',
      provider: 'sandbox',
      paymentId: `pay-${id}`,
    },
    { actorId: 'provider:card' },
  );
}

async function settle(token: string, depositId: string) {
  return post(token, '/api/transactions/settle-deposit', { depositId });
}

async function transfer(from: { token: string }, to: { id: string }, rupees: number): Promise<string> {
  const response = await post(from.token, '/api/transactions/transfer-funds', {
    receiver: to.id,
    amount: rupees,
    reference: 'dinner',
    transactionPin: '1234',
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { transactionId: string }).transactionId;
}

async function ledgerBalance(accountId: string): Promise<bigint> {
  const row = await tablesView<LedgerTables>(harness.database.db)
    .selectFrom('ledger.accounts')
    .select('balance')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

async function eventCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ledger.events`.execute(harness.database.db);
  return rows[0]?.n ?? 0;
}

describe('an admin who is a party', () => {
  it('cannot settle or fail a deposit into their own wallet', async () => {
    const depositId = await deposit(mallory, 500);
    const before = await eventCount();
    const settled = await post(mallory.token, '/api/transactions/settle-deposit', { depositId });
    expect(settled.statusCode, settled.body).toBe(403);
    expect(settled.json()).toMatchObject({ success: false, code: 'actor_is_party' });
    const failed = await post(mallory.token, '/api/transactions/fail-deposit', { depositId, reason: 'hide it' });
    expect(failed.json()).toMatchObject({ success: false, code: 'actor_is_party' });
    expect(await eventCount()).toBe(before);
    // Another admin may.
    expect((await post(adminToken, '/api/transactions/settle-deposit', { depositId })).statusCode).toBe(200);
  });

  it('cannot reverse a transfer they sent or received', async () => {
    const sent = await transfer(mallory, asha, 100);
    const received = await transfer(asha, mallory, 100);
    const balance = await ledgerBalance(mallory.id);
    for (const transactionId of [sent, received]) {
      const response = await post(mallory.token, '/api/admin/reverse', {
        transactionId,
        kind: 'transfer',
        reason: 'mine',
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({ code: 'actor_is_party' });
    }
    expect(await ledgerBalance(mallory.id)).toBe(balance);
  });
});

it('a card deposit waiting for the provider (3-D Secure) cannot be settled or failed by hand', async () => {
  await harness.ledger.requestDeposit(
    {
      depositId: 'card-3ds',
      walletId: asha.id,
      amountPaise: 50_000n,
      method: 'card',
      reference: 'card top up',
      details: { provider: 'stripe', paymentId: 'pi_3ds' },
    },
    { actorId: asha.id },
  );
  const settled = await post(adminToken, '/api/transactions/settle-deposit', { depositId: 'card-3ds' });
  expect(settled.statusCode, settled.body).toBe(409);
  expect(settled.json()).toMatchObject({ code: 'not_reviewable_by_hand' });
  const failed = await post(adminToken, '/api/transactions/fail-deposit', {
    depositId: 'card-3ds',
    reason: 'looks odd',
  });
  expect(failed.json()).toMatchObject({ code: 'not_reviewable_by_hand' });
});

describe('four eyes above the threshold', () => {
  it('a settlement above the threshold waits; the requester cannot approve; a second admin can, and the wallet is credited once', async () => {
    const depositId = await deposit(asha, 5_000);
    const before = await ledgerBalance(asha.id);
    const filed = await post(adminToken, '/api/transactions/settle-deposit', { depositId });
    expect(filed.statusCode, filed.body).toBe(202);
    expect(filed.json().message).toBe("Awaiting a second admin's approval: amounts above ₹1,000 need two admins");
    const approval = (filed.json().data as { approval: { id: string; amount: number; state: string } }).approval;
    expect(approval).toMatchObject({ amount: 5_000, state: 'pending' });
    expect(await ledgerBalance(asha.id)).toBe(before);

    // Asking again joins the open request.
    const again = await post(adminToken, '/api/transactions/settle-deposit', { depositId });
    expect((again.json().data as { approval: { id: string } }).approval.id).toBe(approval.id);

    const self = await post(adminToken, `/api/admin/approvals/${approval.id}/approve`, {});
    expect(self.statusCode, self.body).toBe(403);
    expect(await ledgerBalance(asha.id)).toBe(before);

    const listed = await harness.call({
      method: 'GET',
      url: '/api/admin/approvals?state=pending',
      headers: { authorization: `Bearer ${mallory.token}` },
    });
    expect((listed.json().data as { id: string }[]).map((row) => row.id)).toContain(approval.id);

    const approved = await post(mallory.token, `/api/admin/approvals/${approval.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect((approved.json().data as { approval: { state: string; decidedBy: string } }).approval).toMatchObject({
      state: 'approved',
      decidedBy: mallory.id,
    });
    expect(await ledgerBalance(asha.id)).toBe(before + 500_000n);

    const twice = await post(mallory.token, `/api/admin/approvals/${approval.id}/approve`, {});
    expect(twice.statusCode).toBe(409);
    expect(await ledgerBalance(asha.id)).toBe(before + 500_000n);

    const { rows } = await sql<{
      action: string;
      actor_id: string;
    }>`select action, actor_id from audit.admin_actions where target = ${`deposit-${depositId}`} order by id`.execute(
      harness.database.db,
    );
    expect(rows.map((row) => row.action)).toEqual(['request_approval', 'settle']);
    expect(rows[1]?.actor_id).toBe(mallory.id);
  });

  it('an approver who is a party is refused, and a rejected request moves nothing', async () => {
    const depositId = await deposit(mallory, 2_000);
    const filed = await post(adminToken, '/api/transactions/settle-deposit', { depositId });
    const approvalId = (filed.json().data as { approval: { id: string } }).approval.id;
    const byParty = await post(mallory.token, `/api/admin/approvals/${approvalId}/approve`, {});
    expect(byParty.json()).toMatchObject({ code: 'actor_is_party' });
    const before = await eventCount();
    const rejected = await post(mallory.token, `/api/admin/approvals/${approvalId}/reject`, {
      reason: 'not mine to decide',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({ state: 'rejected', decisionReason: 'not mine to decide' });
    expect(await eventCount()).toBe(before);
    const late = await post(mallory.token, `/api/admin/approvals/${approvalId}/approve`, {});
    expect(late.statusCode).toBe(409);
  });

  it('a reversal above the threshold waits for a second admin too', async () => {
    await fund(asha, 900);
    const sent = await transfer(asha, mallory, 1_500);
    const filed = await post(adminToken, '/api/admin/reverse', {
      transactionId: sent,
      kind: 'transfer',
      reason: 'sent by mistake',
    });
    expect(filed.statusCode, filed.body).toBe(202);
    const approvalId = (filed.json().data as { approval: { id: string; reason: string } }).approval.id;
    const second = await namedAdmin('auditor@example.in');
    const before = await ledgerBalance(asha.id);
    const approved = await post(second.token, `/api/admin/approvals/${approvalId}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await ledgerBalance(asha.id)).toBe(before + 150_000n);
  });

  it('below the threshold one admin acts alone', async () => {
    // An admin with nothing settled alone in the last 24 hours.
    const teller = await namedAdmin('teller@example.in');
    const depositId = await deposit(asha, 1_000);
    const settled = await settle(teller.token, depositId);
    expect(settled.statusCode, settled.body).toBe(200);
  });
});

describe('four eyes over a rolling 24 hours, and on accounts the admin activated', () => {
  it("an admin's settlements alone are summed: the one that takes the 24-hour total above the threshold waits", async () => {
    const splitter = await namedAdmin('splitter@example.in');
    const wallets = [await user('split1@example.in'), await user('split2@example.in'), await user('split3@example.in')];
    // ₹400 at a time, each into another wallet: every one is below ₹1,000 on its own.
    for (const wallet of wallets.slice(0, 2)) {
      const settled = await settle(splitter.token, await deposit(wallet, 400));
      expect(settled.statusCode, settled.body).toBe(200);
    }
    const before = await ledgerBalance(wallets[2]?.id ?? '');
    const third = await settle(splitter.token, await deposit(wallets[2] ?? asha, 400));
    expect(third.statusCode, third.body).toBe(202);
    expect(third.json().message).toBe(
      "Awaiting a second admin's approval: your settlements and reversals without a second admin in the last 24 hours would come to more than ₹1,000",
    );
    expect(await ledgerBalance(wallets[2]?.id ?? '')).toBe(before);
    // A second admin's approval runs it, and it is not the splitter's alone.
    const approvalId = (third.json().data as { approval: { id: string } }).approval.id;
    const approved = await post(adminToken, `/api/admin/approvals/${approvalId}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await ledgerBalance(wallets[2]?.id ?? '')).toBe(before + 40_000n);
    // The approved one is not the splitter's alone: ₹200 more brings the total to ₹1,000, not above.
    const upTo = await settle(splitter.token, await deposit(wallets[0] ?? asha, 200));
    expect(upTo.statusCode, upTo.body).toBe(200);
    const small = await settle(splitter.token, await deposit(wallets[1] ?? asha, 1));
    expect(small.statusCode, small.body).toBe(202);
  });

  it("a reversal counts toward the admin's 24-hour total too", async () => {
    const corrector = await namedAdmin('corrector@example.in');
    const payer = await user('payer@example.in');
    await fund(payer, 900);
    const payee = await user('payee@example.in');
    expect((await settle(corrector.token, await deposit(payee, 700))).statusCode).toBe(200);
    const sent = await transfer(payer, payee, 400);
    const reversed = await post(corrector.token, '/api/admin/reverse', {
      transactionId: sent,
      kind: 'transfer',
      reason: 'sent by mistake',
    });
    expect(reversed.statusCode, reversed.body).toBe(202);
    expect(reversed.json().message).toMatch(/your settlements and reversals without a second admin/);
  });

  it('settlements into one wallet are summed over 24 hours whichever admin settles them alone', async () => {
    const first = await namedAdmin('first-teller@example.in');
    const second = await namedAdmin('second-teller@example.in');
    const wallet = await user('one-wallet@example.in');
    expect((await settle(first.token, await deposit(wallet, 600))).statusCode).toBe(200);
    const next = await settle(second.token, await deposit(wallet, 600));
    expect(next.statusCode, next.body).toBe(202);
    expect(next.json().message).toBe(
      "Awaiting a second admin's approval: money put into this wallet without a second admin in the last 24 hours would come to more than ₹1,000",
    );
  });

  it('two settlements at once by one admin cannot both slip under the threshold', async () => {
    const racer = await namedAdmin('racer@example.in');
    const wallets = [await user('race1@example.in'), await user('race2@example.in')];
    const deposits = await Promise.all(wallets.map((wallet) => deposit(wallet, 600)));
    const replies = await Promise.all(deposits.map((depositId) => settle(racer.token, depositId)));
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 202]);
  });

  it('only the last 24 hours count', async () => {
    const veteran = await namedAdmin('veteran@example.in');
    const wallets = [await user('old1@example.in'), await user('old2@example.in')];
    expect((await settle(veteran.token, await deposit(wallets[0] ?? asha, 900))).statusCode).toBe(200);
    // Make yesterday's settlement 25 hours old (as the owner: the runtime only appends to audit tables).
    const owner = new pg.Client({ connectionString: harness.database.ownerUrl });
    await owner.connect();
    try {
      await owner.query(
        "update audit.solo_money_actions set recorded_at = recorded_at - interval '25 hours' where admin_id = $1",
        [veteran.id],
      );
    } finally {
      await owner.end();
    }
    const today = await settle(veteran.token, await deposit(wallets[1] ?? asha, 900));
    expect(today.statusCode, today.body).toBe(200);
  });

  it('a settlement into an account the settling admin activated waits for a second admin, whatever the amount', async () => {
    const activator = await namedAdmin('activator@example.in');
    const puppet = await registeredUser(harness, 'puppet@example.in', { activate: false });
    const activated = await post(activator.token, '/api/users/update-user-verified-status', {
      selectedUser: puppet.id,
      isVerified: true,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const puppetToken = await signIn(harness, 'puppet@example.in', VALID_REGISTRATION.password);
    const depositId = await deposit({ token: puppetToken }, 10);
    const own = await settle(activator.token, depositId);
    expect(own.statusCode, own.body).toBe(202);
    expect(own.json().message).toBe(
      "Awaiting a second admin's approval: you activated this account, so money goes into it only with another admin",
    );
    // An admin who did not activate it settles below the threshold directly.
    const other = await namedAdmin('other-teller@example.in');
    const byOther = await settle(other.token, await deposit({ token: puppetToken }, 10));
    expect(byOther.statusCode, byOther.body).toBe(200);
  });
});

it('a statement CSV opens formula-like names as text', async () => {
  const registered = await harness.call({
    method: 'POST',
    url: '/api/users/register',
    payload: {
      ...VALID_REGISTRATION,
      email: 'formula@example.in',
      firstName: '=HYPERLINK("http://evil.test")',
      lastName: '@SUM(A1)',
    },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const trickster = await activate('formula@example.in');
  await fund(trickster, 50);
  await transfer(trickster, asha, 10);
  const csv = await readUntil(
    'the statement CSV to name the trickster',
    async () =>
      (
        await harness.call({
          method: 'GET',
          url: `/api/admin/accounts/${asha.id}/statement.csv`,
          headers: { authorization: `Bearer ${adminToken}` },
        })
      ).body,
    (body) => body.includes('HYPERLINK'),
    { timeoutMs: 10_000, intervalMs: 100 },
  );
  const line = csv.split('\n').find((row) => row.includes('HYPERLINK')) ?? '';
  expect(line).toContain(`"'=HYPERLINK(""http://evil.test"") @SUM(A1)"`);
});

async function activate(email: string): Promise<{ id: string; token: string }> {
  const users = await harness.call({
    method: 'GET',
    url: '/api/users/get-all-users',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const id =
    (users.json().data as { _id: string; email: string }[]).find((candidate) => candidate.email === email)?._id ?? '';
  await post(adminToken, '/api/users/update-user-verified-status', { selectedUser: id, isVerified: true });
  return { id, token: await signIn(harness, email, VALID_REGISTRATION.password) };
}

async function namedAdmin(email: string): Promise<{ id: string; token: string }> {
  const created = await createAdmin(harness.database.db, harness.ledger, { email, password: 'second-admin-password' });
  return { id: created.userId, token: await signIn(harness, email, 'second-admin-password') };
}

/**
 * A registered user made an admin by admin:create: it signs in with the operator's password
 * (its own no longer works) and sets a PIN again through the PIN-reset e-mail.
 */
async function promotedAdmin(email: string): Promise<{ id: string; token: string }> {
  const registered = await user(email);
  expect(
    await createAdmin(harness.database.db, harness.ledger, { email, password: 'promoted-admin-password' }),
  ).toMatchObject({ status: 'promoted' });
  await harness.call({ method: 'POST', url: '/api/users/send-pin-reset-otp', payload: { email } });
  const otp = codeFrom(await harness.waitForMail(email, (mail) => /^\s{4}\d{6}\s*$/m.test(mail.raw)));
  const verified = await harness.call({
    method: 'POST',
    url: '/api/users/verify-pin-reset-otp',
    payload: { email, otp },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const reset = await harness.call({
    method: 'POST',
    url: '/api/users/reset-transaction-pin',
    payload: { email, otp, newPin: '1234' },
  });
  expect(reset.statusCode, reset.body).toBe(200);
  return { id: registered.id, token: await signIn(harness, email, 'promoted-admin-password') };
}
