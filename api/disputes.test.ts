/**
 * Disputes over HTTP (issue 43 item 3), on a real Postgres with the projections running: only
 * the payer of a completed payment may dispute it, once at a time, with a bounded reason; each
 * step is a ledger event on the payment's stream (DisputeRaised, DisputeRejected, the reversal)
 * kept with the admins' queue; an admin rejects with a reason (audit trail) or reverses the
 * payment, which above the approval threshold waits for a second admin, whose approval
 * resolves the dispute. Refusals change nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  registeredUser,
  signIn,
  startProjectedHarness,
  verifierToken,
  type Harness,
} from '../test/app-harness.ts';
import { withClient } from '../platform/database.ts';
import { eventCount } from '../test/database.ts';

let harness: Harness;
let adminToken: string;
let secondAdminToken: string;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
let meena: { id: string; token: string };

function call(token: string | undefined, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  return harness.call({
    method,
    url,
    ...(payload === undefined ? {} : { payload }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function person(email: string): Promise<{ id: string; token: string }> {
  const user = await registeredUser(harness, email);
  return { id: user.id, token: user.token ?? '' };
}

async function pay(rupees: number, reference: string): Promise<string> {
  const paid = await call(asha.token, 'POST', '/api/transactions/transfer-funds', {
    receiver: ravi.id,
    amount: rupees,
    reference,
    transactionPin: '1234',
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return (paid.json().data as { transactionId: string }).transactionId;
}

async function balanceOf(person: { token: string }): Promise<number> {
  const info = await call(person.token, 'POST', '/api/users/get-user-info', {});
  return (info.json().data as { balance: number }).balance;
}

async function streamEvents(transactionId: string): Promise<string[]> {
  const { rows } = await sql<{ type: string }>`
    select type from ledger.events where stream_id = ${`transfer-${transactionId}`} order by stream_version`.execute(
    harness.database.db,
  );
  return rows.map((row) => row.type);
}

beforeAll(async () => {
  // ₹1,000: a reversal of more waits for a second admin.
  harness = await startProjectedHarness({ adminApprovalThresholdPaise: 100_000n });
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  secondAdminToken = await verifierToken(harness);
  asha = await person('asha.dispute@example.in');
  ravi = await person('ravi.dispute@example.in');
  meena = await person('meena.dispute@example.in');
  // By card, credited at once: no admin's settlement counts toward the 24-hour totals below.
  const funded = await call(asha.token, 'POST', '/api/transactions/deposit-funds', {
    amount: 5000,
    reference: 'card top up',
    transactionPin: '1234',
    paymentMethod: 'card',
    paymentMethodId: 'pm_card_visa',
  });
  expect(funded.statusCode, funded.body).toBe(200);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe('raising a dispute', () => {
  it('is refused to the payee, to anyone else, without a reason; nothing is recorded', async () => {
    const transferId = await pay(100, 'wrong person');
    const before = await eventCount(harness.database.db);
    const byPayee = await call(ravi.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason: 'not mine' });
    expect(byPayee.statusCode).toBe(403);
    expect(byPayee.json()).toMatchObject({ success: false, code: 'not_disputable' });
    const byOther = await call(meena.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason: 'not mine' });
    expect(byOther.statusCode).toBe(404);
    const short = await call(asha.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason: 'no' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ success: false, code: 'validation_failed' });
    const long = await call(asha.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(await eventCount(harness.database.db)).toBe(before);
    const detail = await call(asha.token, 'GET', `/api/transactions/${transferId}`);
    expect(detail.json().data).toMatchObject({ dispute: null, canDispute: true });
    expect((await call(ravi.token, 'GET', `/api/transactions/${transferId}`)).json().data.canDispute).toBe(false);
  });

  it('by the payer opens one dispute, a ledger event on the payment stream; a second is refused', async () => {
    const transferId = await pay(120, 'paid twice');
    const raised = await call(asha.token, 'POST', `/api/transactions/${transferId}/dispute`, {
      reason: 'I was charged twice',
    });
    expect(raised.statusCode, raised.body).toBe(201);
    expect(raised.json().data).toMatchObject({
      transactionId: transferId,
      kind: 'transfer',
      status: 'open',
      reason: 'I was charged twice',
      amount: 120,
      payer: { id: asha.id },
      payee: { id: ravi.id },
    });
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised']);
    const again = await call(asha.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason: 'once more' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'dispute_already_open' });
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised']);
    const detail = (await call(asha.token, 'GET', `/api/transactions/${transferId}`)).json().data;
    expect(detail).toMatchObject({ canDispute: false, dispute: { status: 'open' } });
  });
});

describe('resolving a dispute', () => {
  async function dispute(transferId: string, reason: string): Promise<string> {
    const raised = await call(asha.token, 'POST', `/api/transactions/${transferId}/dispute`, { reason });
    expect(raised.statusCode, raised.body).toBe(201);
    return (raised.json().data as { id: string }).id;
  }

  it('by rejection: a reason, an event, an audit row; the customer reads why and may dispute again', async () => {
    const transferId = await pay(50, 'tea stall');
    const disputeId = await dispute(transferId, 'never received the tea');
    const queue = await call(adminToken, 'GET', '/api/admin/disputes?status=open');
    expect((queue.json().data as { id: string }[]).map((item) => item.id)).toContain(disputeId);
    expect((await call(asha.token, 'GET', '/api/admin/disputes')).statusCode).toBe(403);
    const rejected = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reject`, {
      reason: 'The merchant shows delivery',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({ status: 'rejected', decisionReason: 'The merchant shows delivery' });
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised', 'DisputeRejected']);
    const { rows } = await sql<{ action: string; target: string }>`
      select action, target from audit.admin_actions where action = 'reject_dispute'`.execute(harness.database.db);
    expect(rows).toContainEqual({ action: 'reject_dispute', target: `transfer-${transferId}` });
    const detail = (await call(asha.token, 'GET', `/api/transactions/${transferId}`)).json().data;
    expect(detail).toMatchObject({ canDispute: true, dispute: { status: 'rejected' }, reversedAt: null });
    const twice = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reject`, { reason: 'again' });
    expect(twice.statusCode).toBe(409);
  });

  it('by a reversal at or under the threshold: one admin, the money back, the dispute resolved', async () => {
    const transferId = await pay(200, 'wrong account');
    const disputeId = await dispute(transferId, 'sent to the wrong account');
    const before = await balanceOf(asha);
    const reversed = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, {
      reason: 'Payer sent to the wrong account',
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().data).toMatchObject({ status: 'done', dispute: { status: 'reversed' } });
    expect(await balanceOf(asha)).toBe(before + 200);
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised', 'TransferReversed']);
    const detail = (await call(asha.token, 'GET', `/api/transactions/${transferId}`)).json().data;
    expect(detail).toMatchObject({ canDispute: false, dispute: { status: 'reversed' } });
    expect(detail.reversedAt).not.toBeNull();
  });

  it('upheld above the threshold: the filing and DisputeUpheld commit together or not at all', async () => {
    const transferId = await pay(1_100, 'phone repair');
    const disputeId = await dispute(transferId, 'the repair was never done');
    const db = harness.database.db;
    // The ledger refuses DisputeUpheld for a moment (a trigger only the owner may add): the
    // append inside the filing's transaction fails.
    const asOwner = (statement: string) =>
      withClient(harness.database.ownerUrl, async (client) => {
        await client.query(statement);
      });
    await asOwner(`
      create function public.test_refuse_upheld() returns trigger language plpgsql as $$
      begin raise exception 'DisputeUpheld refused by the test'; end $$;
      create trigger refuse_upheld before insert on ledger.events for each row
        when (new.type = 'DisputeUpheld') execute function public.test_refuse_upheld()`);
    try {
      const failed = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, {
        reason: 'Repair shop closed, refund',
      });
      expect(failed.statusCode, failed.body).toBe(500);
    } finally {
      await asOwner('drop trigger refuse_upheld on ledger.events; drop function public.test_refuse_upheld()');
    }
    const { rows: filed } = await sql<{ id: string }>`
      select id from audit.approval_requests where target = ${`transfer-${transferId}`}`.execute(db);
    expect(filed).toEqual([]);
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised']);
    const open = (await call(adminToken, 'GET', `/api/admin/disputes/${disputeId}`)).json().data;
    expect(open).toMatchObject({ status: 'open', approvalId: null });
    // With the ledger willing again, the same uphold files the request and the event together.
    const retried = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, {
      reason: 'Repair shop closed, refund',
    });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised', 'DisputeUpheld']);
  });

  it('by a reversal above the threshold: it waits for a second admin, whose approval resolves it', async () => {
    const transferId = await pay(1_250.5, 'laptop deposit');
    const disputeId = await dispute(transferId, 'the seller never answered');
    const filed = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, {
      reason: 'Seller unreachable, refund',
    });
    expect(filed.statusCode, filed.body).toBe(202);
    expect(filed.json().data).toMatchObject({ status: 'awaiting_approval', dispute: { status: 'awaiting_approval' } });
    const approvalId = (filed.json().data as { dispute: { approvalId: string } }).dispute.approvalId;
    // The decision is recorded for the payer (and their live stream); no money has moved yet.
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised', 'DisputeUpheld']);
    const again = await call(adminToken, 'POST', `/api/admin/disputes/${disputeId}/reverse`, {
      reason: 'Seller unreachable, refund',
    });
    expect(again.statusCode, again.body).toBe(202);
    expect(await streamEvents(transferId)).toEqual(['TransferCompleted', 'DisputeRaised', 'DisputeUpheld']);
    const waiting = (await call(asha.token, 'GET', `/api/transactions/${transferId}`)).json().data;
    expect(waiting.dispute.status).toBe('awaiting_approval');
    const selfApproval = await call(adminToken, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(selfApproval.statusCode).toBe(403);
    const before = await balanceOf(asha);
    const approved = await call(secondAdminToken, 'POST', `/api/admin/approvals/${approvalId}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceOf(asha)).toBe(before + 1_250.5);
    const resolved = (await call(adminToken, 'GET', `/api/admin/disputes/${disputeId}`)).json().data;
    expect(resolved).toMatchObject({
      status: 'reversed',
      decisionReason: 'Seller unreachable, refund',
      approvalId: null,
    });
    expect(await streamEvents(transferId)).toEqual([
      'TransferCompleted',
      'DisputeRaised',
      'DisputeUpheld',
      'TransferReversed',
    ]);
    const detail = (await call(asha.token, 'GET', `/api/transactions/${transferId}`)).json().data;
    expect(detail.dispute.status).toBe('reversed');
    expect(detail.reversedAt).not.toBeNull();
  });
});
