/**
 * A user's own statement over HTTP: the charts' JSON, the CSV and the PDF for a
 * period of India Standard Time days - only the caller's wallet, only the period's days - and
 * bad periods refused with the 400 envelope, changing nothing. Events are recorded on chosen
 * days (test/backdated-events.ts) through the real ledger.append, projected by the real workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { registeredUser, startProjectedHarness, type Harness } from '../test/app-harness.ts';
import { eventCount } from '../test/database.ts';
import { allowBackdatedEvents, appendRecordedAt } from '../test/backdated-events.ts';
import { allCaughtUp } from '../test/read-model.ts';
import { pdfText } from '../test/pdf-text.ts';
import type { RawEvent } from '../test/raw-append.ts';
import { waitUntil } from '../test/wait.ts';
import { rupeeText } from '../user-statements/statement-words.ts';

let harness: Harness;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };

/** A UPI deposit requested and settled in one append (the history shows the request's row). */
function deposit(id: string, walletId: string, paise: bigint): RawEvent[] {
  return [
    {
      type: 'DepositRequested',
      data: {
        depositId: id,
        walletId,
        amountPaise: paise.toString(),
        method: 'upi',
        reference: `top up ${id}`,
        details: { upiId: 'me@upi' },
      },
    },
    {
      type: 'DepositSettled',
      data: { depositId: id, walletId, amountPaise: paise.toString(), method: 'upi', confirmedBy: 'admin' },
      postings: [
        { account: 'funding:upi', amount: (-paise).toString() },
        { account: walletId, amount: paise.toString() },
      ],
    },
  ];
}

function transfer(id: string, from: string, to: string, paise: bigint, reference: string): RawEvent[] {
  return [
    {
      type: 'TransferCompleted',
      data: { transferId: id, fromAccountId: from, toAccountId: to, amountPaise: paise.toString(), reference },
      postings: [
        { account: from, amount: (-paise).toString() },
        { account: to, amount: paise.toString() },
      ],
    },
  ];
}

async function waitForProjections(): Promise<void> {
  await waitUntil('the projections to catch up', () => allCaughtUp(harness.database.db), { timeoutMs: 30_000 });
}

beforeAll(async () => {
  harness = await startProjectedHarness();
  await allowBackdatedEvents(harness.database.ownerUrl);
  const user = async (email: string) => {
    const registered = await registeredUser(harness, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha@example.in');
  ravi = await user('ravi@example.in');
  const client = new pg.Client(harness.database.url);
  await client.connect();
  try {
    // 10 March, 10:30 IST.
    await appendRecordedAt(
      client,
      new Date('2025-03-10T05:00:00Z'),
      'deposit-asha-march',
      -1,
      deposit('asha-march', asha.id, 1_000_000n),
    );
    // Ravi's own deposit in the same month: never on Asha's statement.
    await appendRecordedAt(
      client,
      new Date('2025-03-15T05:00:00Z'),
      'deposit-ravi-777',
      -1,
      deposit('ravi-777', ravi.id, 77_700n),
    );
    // 31 March 20:00 UTC is 1 April, 01:30 IST: April's.
    await appendRecordedAt(
      client,
      new Date('2025-03-31T20:00:00Z'),
      'transfer-asha-ravi',
      -1,
      transfer('asha-ravi', asha.id, ravi.id, 150_000n, 'Dinner at Koramangala'),
    );
  } finally {
    await client.end();
  }
  await waitForProjections();
}, 120_000);

afterAll(async () => {
  await harness.close();
});

function get(token: string | undefined, url: string) {
  return harness.call({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe('GET /api/transactions/statement/charts', () => {
  it("gives the caller's daily closing balances and monthly totals for the period", async () => {
    const response = await get(asha.token, '/api/transactions/statement/charts?from=2025-03-01&to=2025-04-30');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as {
      openingBalance: number;
      closingBalance: number;
      moneyIn: number;
      moneyOut: number;
      timeZone: string;
      daily: { date: string; balance: number }[];
      monthly: { month: string; moneyIn: number; moneyOut: number }[];
    };
    expect(data).toMatchObject({ openingBalance: 0, closingBalance: 8_500, moneyIn: 10_000, moneyOut: 1_500 });
    expect(data.timeZone).toBe('Asia/Kolkata');
    expect(data.daily).toHaveLength(61);
    expect(data.daily.find((day) => day.date === '2025-03-09')?.balance).toBe(0);
    expect(data.daily.find((day) => day.date === '2025-03-10')?.balance).toBe(10_000);
    expect(data.daily.find((day) => day.date === '2025-03-31')?.balance).toBe(10_000);
    expect(data.daily.find((day) => day.date === '2025-04-01')?.balance).toBe(8_500);
    expect(data.monthly).toEqual([
      { month: '2025-03', moneyIn: 10_000, moneyOut: 0 },
      { month: '2025-04', moneyIn: 0, moneyOut: 1_500 },
    ]);
  });

  it('starts a later period from the balance it opened with, and never shows another wallet', async () => {
    const april = (await get(asha.token, '/api/transactions/statement/charts?from=2025-04-01&to=2025-04-01')).json()
      .data as { openingBalance: number; closingBalance: number; daily: unknown[] };
    expect(april).toMatchObject({ openingBalance: 10_000, closingBalance: 8_500 });
    expect(april.daily).toEqual([{ date: '2025-04-01', balance: 8_500 }]);
    // An account id in the query is not read: still the caller's own wallet.
    const mine = (
      await get(ravi.token, `/api/transactions/statement/charts?from=2025-03-01&to=2025-04-30&accountId=${asha.id}`)
    ).json().data as { moneyIn: number; closingBalance: number; monthly: unknown[] };
    expect(mine).toMatchObject({ moneyIn: 777 + 1_500, closingBalance: 2_277 });
    expect(mine.monthly).toEqual([
      { month: '2025-03', moneyIn: 777, moneyOut: 0 },
      { month: '2025-04', moneyIn: 1_500, moneyOut: 0 },
    ]);
  });
});

/** A wallet's display name, as the statements name a counterparty. */
async function displayName(accountId: string): Promise<string> {
  const { rows } = await sql<{ display_name: string }>`
    select display_name from read.directory where account_id = ${accountId}`.execute(harness.database.db);
  return rows[0]?.display_name ?? '';
}

describe('GET /api/transactions/statement.csv', () => {
  const header = 'Date (IST),Description,Reference / note,Transaction ID,Debit (₹),Credit (₹),Balance (₹)';

  it("lists the period's postings of the caller's wallet in people's words, with IST times, references and running balances", async () => {
    const march = await get(asha.token, '/api/transactions/statement.csv?from=2025-03-01&to=2025-03-31');
    expect(march.statusCode, march.body).toBe(200);
    expect(march.headers['content-type']).toContain('text/csv');
    expect(march.headers['content-disposition']).toBe('attachment; filename="statement-2025-03-01-to-2025-03-31.csv"');
    // The byte order mark Excel needs to read the file as UTF-8 (the rupee sign in the headers).
    expect(march.rawPayload.subarray(0, 3).toString('hex')).toBe('efbbbf');
    const lines = march.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(header);
    expect(lines).toHaveLength(2);
    // 05:00 UTC is 10:30 IST; the deposit's reference is its request's (history's row).
    expect(lines[1]).toBe('"10 Mar 2025, 10:30 am",Added by UPI,top up asha-march,asha-march,,10000.00,10000.00');
    expect(march.body).not.toContain('ravi-777');

    const april = await get(asha.token, '/api/transactions/statement.csv?from=2025-04-01&to=2025-04-30');
    const aprilLines = april.body.trim().split('\n');
    expect(aprilLines).toHaveLength(2);
    // 31 March 20:00 UTC is 1 April 01:30 IST; the payer's note; the transaction id the history shows.
    expect(aprilLines[1]).toBe(
      `"1 Apr 2025, 1:30 am",Paid to ${await displayName(ravi.id)},Dinner at Koramangala,asha-ravi,1500.00,,8500.00`,
    );
    // A period without postings: the header alone.
    const empty = await get(asha.token, '/api/transactions/statement.csv?from=2024-01-01&to=2024-12-31');
    expect(empty.body.trim().split('\n')).toHaveLength(1);
  });

  it("says a reversal with its reason, the refund back on the payer's running balance", async () => {
    // Users of their own: the others' histories are counted by the tests below.
    const carol = await registeredUser(harness, 'carol@example.in');
    const dev = await registeredUser(harness, 'dev@example.in');
    const client = new pg.Client(harness.database.url);
    await client.connect();
    try {
      // 1 May 10:30 IST, 5 May 14:30 IST, 6 May 09:30 IST.
      await appendRecordedAt(client, new Date('2025-05-01T05:00:00Z'), 'deposit-carol-may', -1, [
        ...deposit('carol-may', carol.id, 50_000n),
      ]);
      await appendRecordedAt(
        client,
        new Date('2025-05-05T09:00:00Z'),
        'transfer-carol-dev',
        -1,
        transfer('carol-dev', carol.id, dev.id, 20_000n, 'Books'),
      );
      const { rows } = await client.query<{ position: string }>(
        `select position::text from ledger.events where stream_id = 'transfer-carol-dev'`,
      );
      await appendRecordedAt(client, new Date('2025-05-06T04:00:00Z'), 'transfer-carol-dev', 0, [
        {
          type: 'TransferReversed',
          data: {
            transferId: 'carol-dev',
            fromAccountId: carol.id,
            toAccountId: dev.id,
            amountPaise: '20000',
            reason: 'Sent twice',
            reversedBy: 'admin',
            reversesPosition: rows[0]?.position ?? '',
          },
          postings: [
            { account: dev.id, amount: '-20000' },
            { account: carol.id, amount: '20000' },
          ],
        },
      ]);
    } finally {
      await client.end();
    }
    await waitForProjections();
    const response = await get(carol.token, '/api/transactions/statement.csv?from=2025-05-01&to=2025-05-31');
    const devName = await displayName(dev.id);
    expect(response.body.trim().split('\n').slice(1)).toEqual([
      '"1 May 2025, 10:30 am",Added by UPI,top up carol-may,carol-may,,500.00,500.00',
      `"5 May 2025, 2:30 pm",Paid to ${devName},Books,carol-dev,200.00,,300.00`,
      `"6 May 2025, 9:30 am",Payment reversed: refund from ${devName},Reversal: Sent twice,carol-dev,,200.00,500.00`,
    ]);
  });

  it('regression: a deposit settled hours after its request says the request time the history shows, named as such', async () => {
    const meena = await registeredUser(harness, 'meena@example.in');
    const events = deposit('meena-june', meena.id, 120_000n);
    const client = new pg.Client(harness.database.url);
    await client.connect();
    try {
      // Requested 12 June 10:00 IST, settled by an admin 15:00 IST.
      await appendRecordedAt(client, new Date('2025-06-12T04:30:00Z'), 'deposit-meena-june', -1, events.slice(0, 1));
      await appendRecordedAt(client, new Date('2025-06-12T09:30:00Z'), 'deposit-meena-june', 0, events.slice(1));
    } finally {
      await client.end();
    }
    await waitForProjections();
    const history = await harness.call({
      method: 'POST',
      url: '/api/transactions/get-all-transactions-by-user',
      headers: { authorization: `Bearer ${meena.token}` },
      payload: { page: 1 },
    });
    expect(history.statusCode, history.body).toBe(200);
    const row = (history.json().data as { items: { reference: string; createdAt: string }[] }).items.find(
      (entry) => entry.reference === 'top up meena-june',
    );
    expect(row?.createdAt).toBe('2025-06-12T04:30:00.000Z');
    const response = await get(meena.token, '/api/transactions/statement.csv?from=2025-06-01&to=2025-06-30');
    expect(response.body.trim().split('\n').slice(1)).toEqual([
      '"12 Jun 2025, 3:00 pm","Added by UPI (requested 12 Jun 2025, 10:00 am)",top up meena-june,meena-june,,1200.00,1200.00',
    ]);
  });

  it('gives the receiver the same transaction, received from the payer, on its own running balance', async () => {
    const response = await get(ravi.token, '/api/transactions/statement.csv?from=2025-03-01&to=2025-04-30');
    const lines = response.body.trim().split('\n');
    expect(lines.slice(1)).toEqual([
      '"15 Mar 2025, 10:30 am",Added by UPI,top up ravi-777,ravi-777,,777.00,777.00',
      `"1 Apr 2025, 1:30 am",Received from ${await displayName(asha.id)},Dinner at Koramangala,asha-ravi,,1500.00,2277.00`,
    ]);
  });
});

describe('GET /api/transactions/statement.pdf', () => {
  it("is a PDF with the period's summary and lines: rupee amounts, IST times and references", async () => {
    const response = await get(asha.token, '/api/transactions/statement.pdf?from=2025-03-01&to=2025-04-30');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(`Account number: ${asha.id}`);
    expect(text).toContain('Period: 1 March 2025 to 30 April 2025 (India Standard Time)');
    expect(text).toContain('Opening balance: ₹0.00');
    expect(text).toContain('Money in: ₹10,000.00');
    expect(text).toContain('Money out: ₹1,500.00');
    expect(text).toContain('Closing balance: ₹8,500.00');
    expect(text).toContain('Transactions: 2');
    expect(text).toContain('10 Mar 2025, 10:30 am');
    expect(text).toContain('Added by UPI');
    expect(text).toContain('Ref: top up asha-march');
    expect(text).toContain('1 Apr 2025, 1:30 am');
    expect(text).toContain(`Paid to ${await displayName(ravi.id)}`);
    expect(text).toContain('Ref: Dinner at Koramangala');
    expect(text).toContain('Txn ID: asha-ravi');
    // Debit, then the running balance after it.
    expect(text).toMatch(/₹1,500\.00\n₹8,500\.00/);
    expect(text).not.toContain('INR');
    expect(text).not.toContain('777.00');
  });

  it('is worded in Hindi for a reader of the Hindi app: names, amounts, times and ids as they are', async () => {
    const response = await get(asha.token, '/api/transactions/statement.pdf?from=2025-03-01&to=2025-04-30&lang=hi');
    expect(response.statusCode).toBe(200);
    // Joined: each run of a script is a text operator of its own (test/pdf-text.ts). A vowel
    // sign written before its consonant (ि) reads back in drawn order and a reph maps to no
    // text, so the words checked avoid them ("अवधि", "किया" and "संदर्भ" render, but read back
    // out of order).
    const text = pdfText(response.rawPayload).replaceAll('\n', '');
    expect(text).toContain(`खाता संख्या: ${asha.id}`);
    expect(text).toContain(': 1 March 2025 से 30 April 2025 तक (भारतीय मानक समय)');
    expect(text).toContain('आए पैसे: ₹10,000.00');
    expect(text).toContain('गए पैसे: ₹1,500.00');
    expect(text).toContain('UPI से जोड़े गए');
    expect(text).toContain(`${await displayName(ravi.id)} को भुगतान`);
    expect(text).toContain(': Dinner at Koramangala');
    expect(text).toContain('1 Apr 2025, 1:30 am');
    expect(text).not.toContain('Opening balance');
    expect(text).not.toContain('Paid to');
  });

  it('refuses a language the app does not have, with the 400 envelope', async () => {
    const response = await get(asha.token, '/api/transactions/statement.pdf?from=2025-03-01&to=2025-04-30&lang=fr');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_failed' });
  });

  it('writes large amounts in Indian digit grouping', async () => {
    expect(rupeeText(12_345_678n)).toBe('₹1,23,456.78');
    expect(rupeeText(-1_000_000_005n)).toBe('-₹1,00,00,000.05');
  });
});

describe('bad periods', () => {
  it.each([
    ['from after to', 'from=2025-04-02&to=2025-04-01', 'The start date must not be after the end date'],
    ['more than 366 days', 'from=2024-01-01&to=2025-01-01', 'A statement covers at most 366 days'],
    ['a day that does not exist', 'from=2025-02-30&to=2025-03-01', 'Not a calendar date'],
    ['a date in another format', 'from=01-03-2025&to=2025-03-31', 'Dates are written YYYY-MM-DD'],
    ['no end', 'from=2025-03-01', 'Date is required'],
  ])('refuses %s with the 400 envelope, for every format', async (_name, query, message) => {
    const before = await eventCount(harness.database.db);
    for (const path of ['statement/charts', 'statement.csv', 'statement.pdf']) {
      const response = await get(asha.token, `/api/transactions/${path}?${query}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toEqual({ success: false, message, code: 'validation_failed' });
    }
    expect(await eventCount(harness.database.db)).toBe(before);
  });

  it('accepts exactly 366 days, and needs a session', async () => {
    expect((await get(asha.token, '/api/transactions/statement/charts?from=2024-01-01&to=2024-12-31')).statusCode).toBe(
      200,
    );
    expect((await get(undefined, '/api/transactions/statement.csv?from=2025-03-01&to=2025-03-31')).statusCode).toBe(
      401,
    );
  });
});

describe('the history date filter (POST /api/transactions/get-all-transactions-by-user)', () => {
  async function history(token: string, body: Record<string, unknown>) {
    return harness.call({
      method: 'POST',
      url: '/api/transactions/get-all-transactions-by-user',
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    });
  }
  const ids = (data: unknown) => (data as { items: { _id: string }[] }).items.map((item) => item._id);

  it('keeps the transactions of the India Standard Time days asked for, paged, searched or not', async () => {
    const april = (await history(asha.token, { page: 1, from: '2025-04-01', to: '2025-04-30' })).json().data;
    expect(ids(april)).toEqual(['asha-ravi']);
    expect(april).toMatchObject({ total: 1, totalExact: true });
    const march = (await history(asha.token, { page: 1, from: '2025-03-01', to: '2025-03-31' })).json().data;
    expect(ids(march)).toEqual(['asha-march']);
    expect((await history(asha.token, { page: 1 })).json().data).toMatchObject({ total: 2 });
    // One end only.
    expect(ids((await history(asha.token, { page: 1, from: '2025-04-01' })).json().data)).toEqual(['asha-ravi']);
    expect(ids((await history(asha.token, { page: 1, to: '2025-03-31' })).json().data)).toEqual(['asha-march']);
    // A search matching both keeps only the period's match.
    const searched = (await history(asha.token, { page: 1, search: 'asha', to: '2025-03-31' })).json().data;
    expect(ids(searched)).toEqual(['asha-march']);
    expect(searched).toMatchObject({ total: 1 });
    // The spec's plain list too, and never another wallet's rows.
    const plain = (await history(ravi.token, { from: '2025-03-01', to: '2025-03-31' })).json().data as {
      _id: string;
    }[];
    expect(plain.map((item) => item._id)).toEqual(['ravi-777']);
  });

  it('refuses dates out of order or malformed with the 400 envelope', async () => {
    const backwards = await history(asha.token, { page: 1, from: '2025-04-02', to: '2025-04-01' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ message: 'The start date must not be after the end date' });
    expect((await history(asha.token, { page: 1, from: '2025-13-01' })).statusCode).toBe(400);
  });
});
