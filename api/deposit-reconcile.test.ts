/**
 * Top-ups a person can complete and an admin can reconcile (issue 41 items 1 and 6), over
 * real HTTP against real Postgres with the projection workers running: a UPI or bank deposit's
 * reply says where to pay (the collection account, the reference, a `upi://pay` link and its
 * QR, decoded here); the admin's pending list and its CSV carry what the payer entered and a
 * settlement waiting for a second admin; the approvals name customer and method; the
 * customer's live stream hears a failure with the admin's reason, and a settlement's amount.
 */
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepositInstructions } from '../contracts/deposit-instructions.ts';
import type { ApprovalRecord, PendingDeposit } from '../contracts/admin.ts';
import { ADMIN, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';
import { openEvents, type SseClient } from '../test/sse-client.ts';
import { waitUntil } from '../test/wait.ts';

// jsqr is CommonJS with a `default` export: under nodenext the default import is module.exports.
const jsQR = jsQRModule.default;

const COLLECTION = {
  accountName: 'Wallet Test Collections',
  accountNumber: '99887766554433',
  ifsc: 'TEST0001234',
  upiId: 'collect.test@upi',
};

let h: Harness;
let baseUrl: string;
let adminToken: string;
let asha: { id: string; token: string };
const opened: SseClient[] = [];

beforeAll(async () => {
  h = await startProjectedHarness(
    { collectionAccount: COLLECTION, adminApprovalThresholdPaise: 100_000n },
    { live: { heartbeatMs: 300 } },
  );
  baseUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
  adminToken = await signIn(h, ADMIN.email, ADMIN.password);
  const registered = await registeredUser(h, 'asha.topup@example.in');
  asha = { id: registered.id, token: registered.token ?? '' };
}, 120_000);

afterAll(async () => {
  for (const client of opened) client.close();
  await h.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function deposit(payload: Record<string, unknown>) {
  const response = await h.call({
    method: 'POST',
    url: '/api/transactions/deposit-funds',
    headers: bearer(asha.token),
    payload: { transactionPin: '1234', ...payload },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { transactionId: string; instructions?: DepositInstructions };
}

const upiDeposit = (amount: number, reference: string) =>
  deposit({ amount, reference, paymentMethod: 'upi', upiDetails: { upiId: 'Asha.V@OKHDFC' } });
const bankDeposit = (amount: number, reference: string) =>
  deposit({
    amount,
    reference,
    paymentMethod: 'bank_transfer',
    bankDetails: { accountNumber: '001234567890', ifscCode: 'hdfc0001234', bankName: 'HDFC Bank' },
  });

async function pendingDeposits(): Promise<PendingDeposit[]> {
  const response = await h.call({ method: 'GET', url: '/api/admin/pending-deposits', headers: bearer(adminToken) });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data as { items: PendingDeposit[] }).items;
}

function qrText(dataUrl: string): string {
  const png = PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? '';
}

describe('where to pay', () => {
  it("a UPI deposit's reply names the collection account, the reference and a upi://pay link its QR decodes to", async () => {
    const { transactionId, instructions } = await upiDeposit(1234.5, 'June rent & more');
    const tr = transactionId.replace(/-/g, '');
    const link = `upi://pay?pa=collect.test%40upi&pn=Wallet%20Test%20Collections&am=1234.50&cu=INR&tn=June%20rent%20%26%20more&tr=${tr}`;
    expect(instructions).toMatchObject({ ...COLLECTION, amount: 1234.5, reference: 'June rent & more' });
    expect(instructions?.upiTransactionRef).toBe(tr);
    expect(instructions?.upiLink).toBe(link);
    expect(qrText(instructions?.upiQr ?? '')).toBe(link);
  });

  it('a card deposit has no instructions (the provider was paid already)', async () => {
    const { instructions } = await deposit({
      amount: 10,
      reference: 'card top up',
      paymentMethod: 'card',
      paymentMethodId: 'pm_sandbox_4242',
    });
    expect(instructions).toBeUndefined();
  });
});

describe("the admin's pending deposits", () => {
  it('each row carries what the payer entered: the UPI ID, or account number, IFSC and bank', async () => {
    const upi = await upiDeposit(300, 'upi payer row');
    const bank = await bankDeposit(400, 'bank payer row');
    const rows = await pendingDeposits();
    expect(rows.find((row) => row.depositId === upi.transactionId)).toMatchObject({
      ownerName: 'Asha Verma',
      method: 'upi',
      amount: 300,
      reference: 'upi payer row',
      payer: { upiId: 'asha.v@okhdfc', accountNumber: null, ifscCode: null, bankName: null },
      awaitingApproval: null,
    });
    expect(rows.find((row) => row.depositId === bank.transactionId)).toMatchObject({
      method: 'bank_transfer',
      payer: { upiId: null, accountNumber: '001234567890', ifscCode: 'HDFC0001234', bankName: 'HDFC Bank' },
    });
  });

  it('a settlement filed for a second admin shows on its row, and the approvals name customer, method and amount', async () => {
    const { transactionId } = await upiDeposit(5_000, 'large top up');
    const filed = await h.call({
      method: 'POST',
      url: '/api/transactions/settle-deposit',
      headers: bearer(adminToken),
      payload: { depositId: transactionId },
    });
    expect(filed.statusCode, filed.body).toBe(202);
    const row = (await pendingDeposits()).find((candidate) => candidate.depositId === transactionId);
    const approvalId = (filed.json().data as { approval: ApprovalRecord }).approval.id;
    expect(row?.awaitingApproval).toMatchObject({ approvalId, requestedByName: expect.any(String) });

    const approvals = await h.call({
      method: 'GET',
      url: '/api/admin/approvals?state=pending',
      headers: bearer(adminToken),
    });
    const approval = (approvals.json().data as ApprovalRecord[]).find((candidate) => candidate.id === approvalId);
    expect(approval).toMatchObject({
      customerId: asha.id,
      customerName: 'Asha Verma',
      method: 'upi',
      amount: 5_000,
      target: `deposit-${transactionId}`,
    });
  });

  it('downloads as CSV for a bank statement, with what customers typed opened as text', async () => {
    const upi = await upiDeposit(250.75, '=HYPERLINK("http://evil.example","x")');
    const response = await h.call({
      method: 'GET',
      url: '/api/admin/pending-deposits.csv',
      headers: bearer(adminToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="pending-deposits.csv"');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'Requested (IST),Deposit ID,UPI transaction ref (tr),Customer,Wallet,Method,Amount (₹),Reference,Payer UPI ID,Payer account number,Payer IFSC,Payer bank,Waiting for a second admin',
    );
    const line = lines.find((candidate) => candidate.includes(upi.transactionId)) ?? '';
    expect(line).toContain(
      `,${upi.transactionId},${upi.transactionId.replace(/-/g, '')},Asha Verma,${asha.id},upi,250.75,"'=HYPERLINK(""http://evil.example"",""x"")",asha.v@okhdfc,,,,`,
    );
    const bankLine = lines.find((candidate) => candidate.includes('bank payer row')) ?? '';
    expect(bankLine).toContain(',bank payer row,,001234567890,HDFC0001234,HDFC Bank,');
    expect(lines.find((candidate) => candidate.includes('large top up'))).toMatch(/,[^,]+$/);
  });

  it('is for admins only', async () => {
    const response = await h.call({
      method: 'GET',
      url: '/api/admin/pending-deposits.csv',
      headers: bearer(asha.token),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ success: false });
  });
});

describe("the customer's live stream", () => {
  const dataOf = (event: { data: string }) => JSON.parse(event.data) as Record<string, unknown>;

  it("hears a failure with the admin's reason, and a settlement with its amount", async () => {
    const stream = await openEvents(baseUrl, asha.token);
    opened.push(stream);
    await waitUntil('the stream connected', () => stream.comments.length > 0);
    const failing = await upiDeposit(120, 'will fail');
    const settling = await upiDeposit(80, 'will settle');
    const failed = await h.call({
      method: 'POST',
      url: '/api/transactions/fail-deposit',
      headers: bearer(adminToken),
      payload: { depositId: failing.transactionId, reason: 'No matching credit on the bank statement' },
    });
    expect(failed.statusCode, failed.body).toBe(200);
    const settled = await h.call({
      method: 'POST',
      url: '/api/transactions/settle-deposit',
      headers: bearer(adminToken),
      payload: { depositId: settling.transactionId },
    });
    expect(settled.statusCode, settled.body).toBe(200);

    const failure = await stream.next(
      'the failed deposit event',
      (event) =>
        event.event === 'deposit' &&
        dataOf(event).depositId === failing.transactionId &&
        dataOf(event).status === 'failed',
    );
    expect(dataOf(failure)).toEqual({
      depositId: failing.transactionId,
      status: 'failed',
      reason: 'No matching credit on the bank statement',
    });
    const success = await stream.next(
      'the settled deposit event',
      (event) =>
        event.event === 'deposit' &&
        dataOf(event).depositId === settling.transactionId &&
        dataOf(event).status === 'success',
    );
    expect(dataOf(success)).toEqual({ depositId: settling.transactionId, status: 'success', amountPaise: '8000' });

    // The history keeps the reason too, for a customer who was away when it failed.
    const page = await h.call({
      method: 'POST',
      url: '/api/transactions/get-all-transactions-by-user',
      headers: bearer(asha.token),
      payload: { page: 1, minPosition: (settled.json().data as { checkpoint: string }).checkpoint },
    });
    expect(page.statusCode, page.body).toBe(200);
    const items = (page.json().data as { items: { _id: string; status: string; failureReason?: string }[] }).items;
    expect(items.find((item) => item._id === failing.transactionId)).toMatchObject({
      status: 'failed',
      failureReason: 'No matching credit on the bank statement',
    });
    expect(items.find((item) => item._id === settling.transactionId)).toMatchObject({ status: 'success' });
    expect(items.find((item) => item._id === settling.transactionId)).not.toHaveProperty('failureReason');
  });
});
