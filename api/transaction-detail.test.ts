/**
 * A payment's own page over HTTP (issue 43): GET /api/transactions/:id answers one entry of the
 * signed-in user's own history with both parties, and its receipt.pdf says the same; another
 * user's transaction id is a 404 exactly like an unknown one (IDOR), and a malformed id is the
 * 400 envelope. Real Postgres, real projections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, fundByUpi, registeredUser, signIn, startProjectedHarness, type Harness } from '../test/app-harness.ts';
import { pdfText } from '../test/pdf-text.ts';

let harness: Harness;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };
let meena: { id: string; token: string };
let transferId: string;
let depositId: string;

function get(token: string | undefined, url: string) {
  return harness.call({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

async function person(email: string): Promise<{ id: string; token: string }> {
  const user = await registeredUser(harness, email);
  return { id: user.id, token: user.token ?? '' };
}

beforeAll(async () => {
  harness = await startProjectedHarness();
  const adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  asha = await person('asha.detail@example.in');
  ravi = await person('ravi.detail@example.in');
  meena = await person('meena.detail@example.in');
  depositId = await fundByUpi(harness, asha.token, adminToken, 2000);
  const paid = await harness.call({
    method: 'POST',
    url: '/api/transactions/transfer-funds',
    headers: { authorization: `Bearer ${asha.token}` },
    payload: { receiver: ravi.id, amount: 1250.5, reference: 'Dinner at Koramangala', transactionPin: '1234' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  transferId = (paid.json().data as { transactionId: string }).transactionId;
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

describe('GET /api/transactions/:transactionId', () => {
  it("answers the payer's entry with both parties, amount, note, time and status", async () => {
    const response = await get(asha.token, `/api/transactions/${transferId}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      _id: transferId,
      transactionId: transferId,
      type: 'debit',
      method: 'transfer',
      from: { id: asha.id, name: 'Asha Verma' },
      to: { id: ravi.id },
      amount: 1250.5,
      reference: 'Dinner at Koramangala',
      status: 'success',
      failureReason: null,
      reversedAt: null,
    });
    expect(Date.parse(body.data.createdAt)).toBeGreaterThan(Date.now() - 120_000);
  });

  it("answers the receiver's own side of the same payment", async () => {
    const response = await get(ravi.token, `/api/transactions/${transferId.toUpperCase()}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ type: 'credit', from: { id: asha.id }, to: { id: ravi.id } });
  });

  it('answers a deposit as money from its funding account', async () => {
    const response = await get(asha.token, `/api/transactions/${depositId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ type: 'deposit', from: { id: 'funding:upi' }, to: { id: asha.id } });
  });

  it("is a 404 for someone else's transaction, the same as for an unknown one", async () => {
    const others = await get(meena.token, `/api/transactions/${transferId}`);
    const unknown = await get(meena.token, '/api/transactions/0190aaaa-0000-7000-8000-000000000000');
    expect(others.statusCode).toBe(404);
    expect(others.json()).toEqual(unknown.json());
    expect(others.json()).toMatchObject({ success: false, message: 'Transaction not found' });
    expect((await get(meena.token, `/api/transactions/${transferId}/receipt.pdf`)).statusCode).toBe(404);
    expect((await get(asha.token, `/api/transactions/${transferId}-reversal`)).statusCode).toBe(404);
  });

  it('refuses a malformed id with the 400 envelope, and needs a session', async () => {
    const response = await get(asha.token, `/api/transactions/${encodeURIComponent('a b;--')}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_failed' });
    expect((await get(undefined, `/api/transactions/${transferId}`)).statusCode).toBe(401);
  });
});

describe('GET /api/transactions/:transactionId/receipt.pdf', () => {
  it('is a PDF receipt saying who paid whom, how much, when (IST), the note, the id and the status', async () => {
    const response = await get(asha.token, `/api/transactions/${transferId}/receipt.pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="receipt-${transferId}.pdf"`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Payment receipt');
    expect(text).toContain('Amount: ₹1,250.50');
    expect(text).toContain('From: Asha Verma');
    expect(text).toContain('To: Asha Verma');
    expect(text).toContain('Note: Dinner at Koramangala');
    expect(text).toMatch(/Date and time: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m IST/);
    expect(text).toContain(`Transaction ID: ${transferId}`);
    expect(text).toContain('Status: Successful');
  });

  it('is worded in Hindi for a reader of the Hindi app, names and note as written; another language is refused', async () => {
    const response = await get(asha.token, `/api/transactions/${transferId}/receipt.pdf?lang=hi`);
    expect(response.statusCode).toBe(200);
    // Joined: a line is one text operator per script, and a vowel sign may be one of its own.
    const text = pdfText(response.rawPayload).replaceAll('\n', '');
    expect(text).toContain('भुगतान की रसीद');
    expect(text).toContain('नोट: Dinner at Koramangala');
    expect(text).toContain('सफल');
    // The id's label ends in glyphs a PDF maps to no text (a reph, a contextual vowel sign).
    expect(text).toContain(`): ${transferId}`);
    expect(text).toContain('तारीख और समय: ');
    expect(text).not.toContain('Amount:');
    const refused = await get(asha.token, `/api/transactions/${transferId}/receipt.pdf?lang=fr`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ success: false, code: 'validation_failed' });
  });
});
