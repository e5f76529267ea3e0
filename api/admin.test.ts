/**
 * The admin and operator API over HTTP: access, corrections (reversals), the audit trail,
 * account audit, the ledger explorer, the trial balance, pending deposits, projections and
 * the API docs - against a real Postgres, real projection workers and real jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  ADMIN,
  VALID_REGISTRATION,
  registeredUser,
  signIn,
  startProjectedHarness,
  type Harness,
  fundByUpi,
  verifierToken,
  requestUpiDeposit,
} from '../test/app-harness.ts';
import { verifyLedger } from '../audit/index.ts';
import { readUntil } from '../test/wait.ts';

let harness: Harness;
let adminToken: string;
let adminId: string;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };

beforeAll(async () => {
  harness = await startProjectedHarness({ readYourWritesTimeoutMs: 30_000 });
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  const me = await post(adminToken, '/api/users/get-user-info', undefined);
  adminId = (me.json().data as { _id: string })._id;
  const user = async (email: string) => {
    const registered = await registeredUser(harness, email);
    return { id: registered.id, token: registered.token ?? '' };
  };
  asha = await user('asha@example.in');
  ravi = await namedUser('ravi@example.in', 'Ravi', 'Kumar');
  await fund(asha, 5_000);
}, 120_000);

afterAll(async () => {
  await harness.close();
});

/** A user with a name of its own (the shared helper names everyone Asha Verma). */
async function namedUser(email: string, firstName: string, lastName: string): Promise<{ id: string; token: string }> {
  const registered = await harness.call({
    method: 'POST',
    url: '/api/users/register',
    payload: { ...VALID_REGISTRATION, email, firstName, lastName },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const users = await get(adminToken, '/api/users/get-all-users');
  const id =
    (users.json().data as { _id: string; email: string }[]).find((candidate) => candidate.email === email)?._id ?? '';
  // Activated by the harness's second admin: money into an account the settling admin activated waits for another.
  await post(await verifierToken(harness), '/api/users/update-user-verified-status', {
    selectedUser: id,
    isVerified: true,
  });
  return { id, token: await signIn(harness, email, VALID_REGISTRATION.password) };
}

async function post(token: string | undefined, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return harness.call({
    method: 'POST',
    url,
    ...(payload === undefined
      ? { headers: { 'content-type': 'application/json', ...auth(token), ...headers } }
      : { payload: payload as Record<string, unknown>, headers: { ...auth(token), ...headers } }),
  });
}

async function get(token: string | undefined, url: string) {
  return harness.call({ method: 'GET', url, headers: auth(token) });
}

function auth(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function deposit(user: { token: string }, rupees: number): Promise<string> {
  return requestUpiDeposit(harness, user.token, rupees);
}

async function fund(user: { token: string }, rupees: number): Promise<string> {
  return fundByUpi(harness, user.token, adminToken, rupees);
}

async function transfer(
  from: { token: string },
  to: { id: string },
  rupees: number,
  reference = 'dinner',
): Promise<{ transactionId: string; checkpoint: string }> {
  const response = await post(from.token, '/api/transactions/transfer-funds', {
    receiver: to.id,
    amount: rupees,
    reference,
    transactionPin: '1234',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { transactionId: string; checkpoint: string };
}

async function eventCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ledger.events`.execute(harness.database.db);
  return rows[0]?.n ?? 0;
}

async function history(user: { token: string }, checkpoint: string) {
  const response = await post(user.token, '/api/transactions/get-all-transactions-by-user', {
    page: 1,
    pageSize: 50,
    minPosition: checkpoint,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (
    response.json().data as {
      items: { _id: string; type: string; amount: number; reference: string; status: string }[];
    }
  ).items;
}

/** Every admin route, with a harmless request: each must refuse anonymous callers and users. */
export const ADMIN_ROUTES: readonly { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> }[] = [
  { method: 'POST', url: '/api/admin/reverse', payload: { transactionId: 'x', kind: 'transfer', reason: 'test' } },
  { method: 'GET', url: '/api/admin/audit-trail' },
  { method: 'GET', url: '/api/admin/accounts/someone/statement' },
  { method: 'GET', url: '/api/admin/accounts/someone/statement.csv' },
  { method: 'GET', url: '/api/admin/accounts/someone/events' },
  { method: 'GET', url: '/api/admin/events' },
  { method: 'GET', url: '/api/admin/events/1' },
  { method: 'GET', url: '/api/admin/trial-balance' },
  { method: 'POST', url: '/api/admin/trial-balance/verify', payload: {} },
  { method: 'GET', url: '/api/admin/pending-deposits' },
  { method: 'GET', url: '/api/admin/pending-deposits.csv' },
  { method: 'GET', url: '/api/admin/projections' },
  { method: 'POST', url: '/api/admin/projections/history/replay', payload: {} },
  { method: 'GET', url: '/api/admin/projections/history/replay' },
  { method: 'GET', url: '/api/admin/approvals' },
  { method: 'POST', url: '/api/admin/approvals/x/approve', payload: {} },
  { method: 'POST', url: '/api/admin/approvals/x/reject', payload: {} },
  { method: 'POST', url: '/api/admin/users/someuser/identification/reveal' },
  { method: 'GET', url: '/api/admin/disputes' },
  { method: 'GET', url: '/api/admin/disputes/x' },
  { method: 'POST', url: '/api/admin/disputes/x/reverse', payload: { reason: 'test' } },
  { method: 'POST', url: '/api/admin/disputes/x/reject', payload: { reason: 'test' } },
];

/** "METHOD /path" of every documented route (the OpenAPI document is generated from the routes). */
async function documentedRoutes(): Promise<{ route: string; tags: string[]; summary: string | undefined }[]> {
  const response = await harness.call({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  const spec = JSON.parse(response.body) as {
    paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
  };
  return Object.entries(spec.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
      tags: operation.tags ?? [],
      summary: operation.summary,
    })),
  );
}

it('the access list names every /api/admin route the app has', async () => {
  const listed = new Set(
    ADMIN_ROUTES.map(
      (route) =>
        `${route.method} ${route.url
          .replace('/someone/', '/:accountId/')
          .replace('/events/1', '/events/:position')
          .replace('/projections/history/', '/projections/:name/')
          .replace('/approvals/x/', '/approvals/:id/')
          .replace('/users/someuser/', '/users/:userId/')
          .replace(/\/disputes\/x(\/|$)/, '/disputes/:disputeId$1')}`,
    ),
  );
  const admin = (await documentedRoutes()).filter((entry) => entry.route.includes(' /api/admin/'));
  expect(admin.length).toBe(ADMIN_ROUTES.length);
  for (const entry of admin) expect(listed, entry.route).toContain(entry.route);
});

describe('access', () => {
  it.each(ADMIN_ROUTES)('$method $url refuses anonymous callers (401) and users (403)', async (route) => {
    const call = (token: string | undefined) =>
      harness.call({
        method: route.method,
        url: route.url,
        headers: auth(token),
        ...(route.payload ? { payload: route.payload } : {}),
      });
    const anonymous = await call(undefined);
    expect(anonymous.statusCode, anonymous.body).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false });
    const user = await call(asha.token);
    expect(user.statusCode, user.body).toBe(403);
    expect(user.json()).toMatchObject({ success: false, code: 'admin_only' });
  });
});

describe('POST /api/admin/reverse', () => {
  it('reverses a transfer as a linked event on its stream; both histories show it; the trial balance stays 0 and verify passes', async () => {
    const sent = await transfer(asha, ravi, 300, 'concert tickets');
    const before = await eventCount();
    const response = await post(adminToken, '/api/admin/reverse', {
      streamId: `transfer-${sent.transactionId}`,
      reason: 'Paid the wrong person',
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as { streamId: string; position: string; checkpoint: string };
    expect(data.streamId).toBe(`transfer-${sent.transactionId}`);
    expect(await eventCount()).toBe(before + 1);

    const { rows } = await sql<{ type: string; metadata: { actorId: string } }>`
      select type, metadata from ledger.events where stream_id = ${data.streamId} order by stream_version`.execute(
      harness.database.db,
    );
    expect(rows.map((row) => row.type)).toEqual(['TransferCompleted', 'TransferReversed']);
    expect(rows[1]?.metadata.actorId).toBe(adminId);

    const mine = await history(asha, data.checkpoint);
    const theirs = await history(ravi, data.checkpoint);
    expect(mine.filter((row) => row._id.startsWith(sent.transactionId))).toEqual([
      expect.objectContaining({
        _id: `${sent.transactionId}-reversal`,
        type: 'credit',
        amount: 300,
        reference: 'Reversal: Paid the wrong person',
        status: 'success',
      }),
      expect.objectContaining({ type: 'debit', amount: 300, reference: 'concert tickets', status: 'success' }),
    ]);
    expect(theirs.filter((row) => row._id.startsWith(sent.transactionId))).toEqual([
      expect.objectContaining({ type: 'debit', amount: 300, reference: 'Reversal: Paid the wrong person' }),
      expect.objectContaining({ type: 'credit', amount: 300, reference: 'concert tickets' }),
    ]);

    const report = await verifyLedger(harness.database.db);
    expect(report.differences).toEqual([]);
    expect(report.totalPaise).toBe(0n);
  });

  it('refuses a second reversal (409) and appends nothing', async () => {
    const sent = await transfer(asha, ravi, 10);
    const first = await post(adminToken, '/api/admin/reverse', {
      transactionId: sent.transactionId,
      kind: 'transfer',
      reason: 'duplicate payment',
    });
    expect(first.statusCode, first.body).toBe(200);
    const before = await eventCount();
    const second = await post(adminToken, '/api/admin/reverse', {
      transactionId: sent.transactionId,
      kind: 'transfer',
      reason: 'duplicate payment',
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      success: false,
      code: 'already_reversed',
      message: 'This transaction has already been reversed',
    });
    expect(await eventCount()).toBe(before);
  });

  it('refuses a reversal that would overdraw a wallet, naming its owner, with nothing appended', async () => {
    const sent = await transfer(asha, ravi, 100);
    await transfer(ravi, asha, 100, 'gave it back');
    const before = await eventCount();
    const response = await post(adminToken, '/api/admin/reverse', {
      transactionId: sent.transactionId,
      kind: 'transfer',
      reason: 'chargeback',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'insufficient_funds',
      message: 'Reversal would overdraw the wallet of Ravi Kumar',
    });
    expect(await eventCount()).toBe(before);
    const audit = await sql<{
      n: number;
    }>`select count(*)::int as n from audit.admin_actions where target = ${`transfer-${sent.transactionId}`}`.execute(
      harness.database.db,
    );
    expect(audit.rows[0]?.n).toBe(0);
  });

  it('reverses a settled deposit; refuses a missing reason, a pending deposit and unknown ids', async () => {
    const depositId = await fund(ravi, 50);
    expect(
      (await post(adminToken, '/api/admin/reverse', { transactionId: depositId, kind: 'deposit' })).statusCode,
    ).toBe(400);
    const short = await post(adminToken, '/api/admin/reverse', {
      transactionId: depositId,
      kind: 'deposit',
      reason: 'no',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('A reason of at least 3 characters is required');
    const reversed = await post(adminToken, '/api/admin/reverse', {
      streamId: `deposit-${depositId}`,
      reason: 'bank recalled it',
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const pending = await deposit(ravi, 20);
    expect(
      (
        await post(adminToken, '/api/admin/reverse', {
          transactionId: pending,
          kind: 'deposit',
          reason: 'not yet settled',
        })
      ).json(),
    ).toMatchObject({ code: 'not_reversible' });
    expect(
      (
        await post(adminToken, '/api/admin/reverse', {
          transactionId: 'no-such-id',
          kind: 'transfer',
          reason: 'whatever',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await post(adminToken, '/api/admin/reverse', { streamId: 'wallet-abc', reason: 'whatever' })).statusCode,
    ).toBe(400);
  });
});

describe('reversing a money request payment over HTTP', () => {
  it('reverses an accepted request by its stream id; both parties see the reversal', async () => {
    const requestId = `req-${Date.now()}`;
    await harness.ledger.requestMoney(
      { requestId, requesterId: ravi.id, payerId: asha.id, amountPaise: 1_500n, reference: 'movie' },
      { actorId: ravi.id },
    );
    await harness.ledger.acceptMoneyRequest({ requestId, payerId: asha.id }, { actorId: asha.id });
    const response = await post(adminToken, '/api/admin/reverse', {
      streamId: `request-${requestId}`,
      reason: 'accepted by mistake',
    });
    expect(response.statusCode, response.body).toBe(200);
    const { checkpoint } = response.json().data as { checkpoint: string };
    expect((await history(asha, checkpoint)).filter((row) => row._id === `${requestId}-reversal`)[0]).toMatchObject({
      type: 'credit',
      amount: 15,
      reference: 'Reversal: accepted by mistake',
    });
    expect((await history(ravi, checkpoint)).filter((row) => row._id === `${requestId}-reversal`)[0]).toMatchObject({
      type: 'debit',
      amount: 15,
      reference: 'Reversal: accepted by mistake',
    });
  });
});

describe('audit trail', () => {
  it('records suspend, activate, settle, fail and reverse with actor, target and reason, newest first, keyset-paged', async () => {
    const target = await registeredUser(harness, 'audited@example.in');
    const suspend = await post(adminToken, '/api/users/update-user-verified-status', {
      selectedUser: target.id,
      isVerified: false,
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    await post(adminToken, '/api/users/update-user-verified-status', { selectedUser: target.id, isVerified: true });
    const toFail = await deposit(asha, 10);
    const failed = await post(adminToken, '/api/transactions/fail-deposit', {
      depositId: toFail,
      reason: 'UPI reference not found',
    });
    expect(failed.statusCode, failed.body).toBe(200);

    const page = await get(adminToken, '/api/admin/audit-trail?limit=200');
    expect(page.statusCode, page.body).toBe(200);
    const items = (
      page.json().data as {
        items: {
          id: string;
          actorId: string;
          action: string;
          target: string;
          reason: string | null;
          recordedAt: string;
        }[];
      }
    ).items;
    const ids = items.map((item) => Number(item.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // All ADMIN's, but for the activations of registeredUser's users (the harness's second admin makes those).
    expect(items.filter((item) => item.action !== 'activate').every((item) => item.actorId === adminId)).toBe(true);
    expect(items.find((item) => item.action === 'fail')).toMatchObject({
      target: `deposit-${toFail}`,
      reason: 'UPI reference not found',
    });
    expect(items.find((item) => item.action === 'suspend')).toMatchObject({ target: target.id });
    expect(items.find((item) => item.action === 'activate' && item.target === target.id)).toBeDefined();
    expect(items.find((item) => item.action === 'reverse')).toMatchObject({ reason: expect.any(String) });
    expect(items.some((item) => item.action === 'settle')).toBe(true);

    // Keyset pages of 2 walk the same list with no gaps or repeats.
    const walked: string[] = [];
    let before: string | null = null;
    do {
      const next = await get(adminToken, `/api/admin/audit-trail?limit=2${before ? `&before=${before}` : ''}`);
      const data = next.json().data as { items: { id: string }[]; nextBefore: string | null };
      walked.push(...data.items.map((item) => item.id));
      before = data.nextBefore;
    } while (before);
    expect(walked).toEqual(items.map((item) => item.id));

    const onlyFails = await get(adminToken, '/api/admin/audit-trail?action=fail');
    expect(
      (onlyFails.json().data as { items: { action: string }[] }).items.every((item) => item.action === 'fail'),
    ).toBe(true);
  });
});

async function caughtUp(): Promise<void> {
  await readUntil(
    'the projections to catch up',
    async () => {
      const { rows } = await sql<{ behind: boolean }>`
      select exists (select 1 from ledger.events e, read.checkpoints c where (e.tx_id, e.position) > (c.tx_id, c.position)) as behind`.execute(
        harness.database.db,
      );
      return rows[0]?.behind ?? true;
    },
    (behind) => !behind,
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

interface Line {
  sequence: string;
  position: string;
  transactionId: string;
  eventType: string;
  amount: number;
  balanceAfter: number;
  counterpartyName: string | null;
  recordedAt: string;
}

async function statement(
  accountId: string,
  query = '',
): Promise<{ items: Line[]; nextAfter: string | null; balance: number | null; displayName: string | null }> {
  const response = await get(adminToken, `/api/admin/accounts/${accountId}/statement${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    items: Line[];
    nextAfter: string | null;
    balance: number | null;
    displayName: string | null;
  };
}

describe('account audit', () => {
  it('lists every posting with a running balance that chains to the balance, filters by type, direction and dates, and pages without gaps', async () => {
    await caughtUp();
    const all = await statement(asha.id, '?limit=1000');
    expect(all.displayName).toBe('Asha Verma');
    expect(all.items.length).toBeGreaterThan(4);
    let running = 0;
    for (const line of all.items) {
      running = Math.round((running + line.amount) * 100) / 100;
      expect(line.balanceAfter).toBe(running);
    }
    expect(all.balance).toBe(running);
    expect(
      all.items.some((line) => line.eventType === 'TransferReversed' && line.counterpartyName === 'Ravi Kumar'),
    ).toBe(true);

    const debits = await statement(asha.id, '?direction=debit&limit=1000');
    expect(debits.items.length).toBeGreaterThan(0);
    expect(debits.items.every((line) => line.amount < 0)).toBe(true);
    const reversals = await statement(asha.id, '?type=TransferReversed,DepositReversed');
    expect(reversals.items.map((line) => line.eventType)).toEqual(
      all.items.filter((line) => line.eventType === 'TransferReversed').map((line) => line.eventType),
    );
    expect(
      (await statement(asha.id, `?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).items,
    ).toEqual([]);
    const middle = all.items[2]!;
    const since = await statement(asha.id, `?from=${encodeURIComponent(middle.recordedAt)}&limit=1000`);
    expect(since.items.every((line) => line.recordedAt >= middle.recordedAt)).toBe(true);
    expect((await get(adminToken, `/api/admin/accounts/${asha.id}/statement?type=NotAnEvent`)).statusCode).toBe(400);

    const walked: string[] = [];
    let after: string | null = null;
    do {
      const page = await statement(asha.id, `?limit=3${after ? `&after=${after}` : ''}`);
      walked.push(...page.items.map((line) => line.sequence));
      after = page.nextAfter;
    } while (after);
    expect(walked).toEqual(all.items.map((line) => line.sequence));
  });

  it('shows a command in the statement at once when asked with its checkpoint (read-your-writes)', async () => {
    const sent = await transfer(asha, ravi, 12.5, 'read your writes');
    const lines = (await statement(ravi.id, `?minPosition=${sent.checkpoint}`)).items;
    expect(lines.some((line) => line.transactionId === sent.transactionId && line.amount === 12.5)).toBe(true);
  });

  it('exports the statement as CSV with a header and the same rows', async () => {
    const all = await statement(asha.id, '?limit=1000');
    const response = await get(adminToken, `/api/admin/accounts/${asha.id}/statement.csv`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\n');
    expect(lines[0]).toBe(
      'sequence,position,recorded_at,event_type,stream_id,transaction_id,counterparty_id,counterparty_name,amount_rupees,balance_after_rupees',
    );
    expect(lines).toHaveLength(all.items.length + 1);
    expect(lines[1]?.split(',').slice(-2).map(Number)).toEqual([all.items[0]?.amount, all.items[0]?.balanceAfter]);
  });

  it("shows the raw events of the account's streams with actor, idempotency key and request id", async () => {
    const keyed = await post(
      asha.token,
      '/api/transactions/transfer-funds',
      { receiver: ravi.id, amount: 1, reference: 'keyed', transactionPin: '1234' },
      { 'idempotency-key': 'audit-key-1' },
    );
    expect(keyed.statusCode, keyed.body).toBe(200);
    const pending = await deposit(asha, 5);
    const response = await get(adminToken, `/api/admin/accounts/${asha.id}/events?limit=1000`);
    expect(response.statusCode, response.body).toBe(200);
    const items = (
      response.json().data as {
        items: {
          position: string;
          streamId: string;
          type: string;
          actorId: string | null;
          idempotencyKey: string | null;
          requestId: string | null;
        }[];
      }
    ).items;
    expect(items[0]).toMatchObject({ streamId: `wallet-${asha.id}`, type: 'WalletOpened' });
    const transferId = (keyed.json().data as { transactionId: string }).transactionId;
    expect(items.find((event) => event.streamId === `transfer-${transferId}`)).toMatchObject({
      actorId: asha.id,
      idempotencyKey: 'audit-key-1',
      requestId: expect.any(String),
    });
    expect(items.find((event) => event.streamId === `deposit-${pending}`)).toMatchObject({
      type: 'DepositRequested',
      actorId: asha.id,
    });
    expect(items.some((event) => event.type === 'TransferReversed')).toBe(true);
    const positions = items.map((event) => BigInt(event.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    // Nobody else's streams.
    const ravisWallet = items.find((event) => event.streamId === `wallet-${ravi.id}`);
    expect(ravisWallet).toBeUndefined();
  });
});

describe('ledger explorer', () => {
  it('pages by position with no gaps or repeats, filters by stream, type, actor and time, and shows one event with its postings', async () => {
    const everything = await get(adminToken, '/api/admin/events?limit=500');
    const all = everything.json().data as { items: { position: string }[]; nextAfter: string | null };
    expect(all.nextAfter).toBeNull();
    const { rows: ordered } = await sql<{
      position: bigint;
    }>`select position from ledger.events order by position`.execute(harness.database.db);
    const rows = ordered.map((row) => ({ position: String(row.position) }));
    expect(all.items.map((event) => event.position)).toEqual(rows.map((row) => row.position));

    const walked: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await get(adminToken, `/api/admin/events?limit=7${after ? `&after=${after}` : ''}`);
      const data = page.json().data as { items: { position: string }[]; nextAfter: string | null };
      expect(data.items.length).toBeLessThanOrEqual(7);
      walked.push(...data.items.map((event) => event.position));
      after = data.nextAfter;
      pages++;
    } while (after);
    expect(pages).toBeGreaterThan(2);
    expect(walked).toEqual(rows.map((row) => row.position));
    expect(new Set(walked).size).toBe(walked.length);

    const reversals = (await get(adminToken, '/api/admin/events?type=TransferReversed')).json().data as {
      items: { type: string; actorId: string; streamId: string }[];
    };
    expect(reversals.items.length).toBeGreaterThan(0);
    expect(reversals.items.every((event) => event.type === 'TransferReversed' && event.actorId === adminId)).toBe(true);
    // Transfers are left out of the type index (migration 0011): the position scan finds them.
    const transfers = (await get(adminToken, '/api/admin/events?type=TransferCompleted')).json().data as {
      items: { type: string }[];
    };
    expect(transfers.items.length).toBeGreaterThan(0);
    expect(transfers.items.every((event) => event.type === 'TransferCompleted')).toBe(true);
    // The actor filter reads the history projection's event_actors: every event the admin made, once projected.
    await caughtUp();
    const byActor = (await get(adminToken, `/api/admin/events?actor=${adminId}&limit=500`)).json().data as {
      items: { actorId: string; position: string }[];
    };
    const { rows: madeByAdmin } = await sql<{ position: string }>`
      select e.position::text as position from ledger.events e where e.metadata->>'actorId' = ${adminId} order by e.position`.execute(
      harness.database.db,
    );
    expect(madeByAdmin.length).toBeGreaterThan(0);
    expect(byActor.items.map((event) => event.position)).toEqual(madeByAdmin.map((row) => row.position));
    expect(byActor.items.every((event) => event.actorId === adminId)).toBe(true);
    const stream = reversals.items[0]!.streamId;
    const byStream = (await get(adminToken, `/api/admin/events?stream=${stream}`)).json().data as {
      items: { type: string }[];
    };
    expect(byStream.items.map((event) => event.type)).toEqual(['TransferCompleted', 'TransferReversed']);
    const future = (
      await get(adminToken, `/api/admin/events?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)
    ).json().data as { items: unknown[] };
    expect(future.items).toEqual([]);

    const reversal = (await get(adminToken, `/api/admin/events?stream=${stream}&type=TransferReversed`)).json()
      .data as { items: { position: string }[] };
    const detail = await get(adminToken, `/api/admin/events/${reversal.items[0]!.position}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const event = detail.json().data as {
      type: string;
      postings: { accountId: string; accountName: string | null; amount: number }[];
    };
    expect(event.type).toBe('TransferReversed');
    expect(event.postings).toHaveLength(2);
    expect(event.postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
    expect(event.postings.map((p) => p.accountName).sort()).toEqual(['Asha Verma', 'Ravi Kumar']);
    expect((await get(adminToken, '/api/admin/events/999999999')).statusCode).toBe(404);
  });
});

describe('trial balance', () => {
  it('sums postings per kind to zero, shows funding sources per method, and runs and records verify', async () => {
    const response = await get(adminToken, '/api/admin/trial-balance');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as {
      byKind: { kind: string; balancePaise: string }[];
      totalPaise: string;
      balanced: boolean;
      fundingSources: { method: string; balancePaise: string }[];
      lastVerify: unknown;
    };
    expect(data.totalPaise).toBe('0');
    expect(data.balanced).toBe(true);
    const wallets = BigInt(data.byKind.find((line) => line.kind === 'wallet')?.balancePaise ?? 'x');
    const funding = BigInt(data.byKind.find((line) => line.kind === 'funding')?.balancePaise ?? 'x');
    expect(wallets + funding).toBe(0n);
    expect(wallets).toBeGreaterThan(0n);
    const upi = await sql<{
      sum: string;
    }>`select coalesce(sum(amount), 0)::text as sum from ledger.postings where account_id = 'funding:upi'`.execute(
      harness.database.db,
    );
    expect(data.fundingSources.map((source) => source.method)).toEqual(['bank_transfer', 'upi', 'card']);
    expect(data.fundingSources.find((source) => source.method === 'upi')?.balancePaise).toBe(upi.rows[0]?.sum);
    expect(data.fundingSources.reduce((sum, source) => sum + BigInt(source.balancePaise), 0n)).toBe(funding);

    await caughtUp();
    const run = await post(adminToken, '/api/admin/trial-balance/verify', {});
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data).toMatchObject({ ok: true, differences: [], totalPaise: '0' });
    const after = (await get(adminToken, '/api/admin/trial-balance')).json().data as {
      lastVerify: { ok: boolean; ranAt: string; id: string };
    };
    expect(after.lastVerify).toMatchObject({ ok: true, id: (run.json().data as { id: string }).id });
    expect(Date.now() - Date.parse(after.lastVerify.ranAt)).toBeLessThan(60_000);
  });
});

describe('pending deposits', () => {
  it('lists waiting bank-transfer and UPI deposits with their owner until they are settled or failed', async () => {
    const waiting = await deposit(ravi, 42);
    const listed = async () =>
      (
        (await get(adminToken, '/api/admin/pending-deposits?limit=1000')).json().data as {
          items: { depositId: string; ownerName: string; amount: number; method: string }[];
        }
      ).items;
    const items = await readUntil(
      'the deposit to be listed',
      listed,
      (list) => list.some((item) => item.depositId === waiting),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(items.find((item) => item.depositId === waiting)).toMatchObject({
      ownerName: 'Ravi Kumar',
      amount: 42,
      method: 'upi',
    });
    const settled = await post(adminToken, '/api/transactions/settle-deposit', { depositId: waiting });
    expect(settled.statusCode).toBe(200);
    await readUntil(
      'the settled deposit to leave the list',
      listed,
      (list) => !list.some((item) => item.depositId === waiting),
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  });
});

describe('projections', () => {
  it('reports checkpoint, lag and last error per projection, and replays one as a job with pollable progress', async () => {
    const status = await get(adminToken, '/api/admin/projections');
    expect(status.statusCode, status.body).toBe(200);
    const data = status.json().data as {
      projections: {
        name: string;
        checkpoint: string;
        eventsApplied: number;
        lagEvents: number;
        lagSeconds: number;
        lastError: string | null;
      }[];
    };
    expect(data.projections.map((p) => p.name)).toEqual(['accounts', 'history', 'money_requests', 'statement_days']);
    for (const p of data.projections) {
      expect(p.checkpoint).toMatch(/^\d+\.\d+$/);
      expect(p.lagEvents).toBeGreaterThanOrEqual(0);
      expect(p.lastError).toBeNull();
    }
    expect((await get(adminToken, '/api/admin/projections/history/replay')).statusCode).toBe(404);
    expect((await post(adminToken, '/api/admin/projections/nope/replay', {})).statusCode).toBe(400);

    const queued = await post(adminToken, '/api/admin/projections/history/replay', { reason: 'index maintenance' });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json().data).toMatchObject({ state: 'queued', projection: 'history' });
    const done = await readUntil(
      'the replay to finish',
      async () =>
        (await get(adminToken, '/api/admin/projections/history/replay')).json().data as {
          state: string;
          processed: number;
          total: number;
        },
      (run) => run.state === 'done' || run.state === 'failed',
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(done.state).toBe('done');
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ledger.events`.execute(
      harness.database.db,
    );
    expect(done.processed).toBeGreaterThanOrEqual(rows[0]!.n);
    const trail = (await get(adminToken, '/api/admin/audit-trail?action=replay')).json().data as {
      items: { target: string; reason: string }[];
    };
    expect(trail.items[0]).toMatchObject({ target: 'history', reason: 'index maintenance' });
    // The rebuilt history still shows the reversals to both parties.
    await caughtUp();
    const { rows: reversalRows } = await sql<{
      n: number;
    }>`select count(*)::int as n from read.history where reference like 'Reversal: %'`.execute(harness.database.db);
    const { rows: reversalEvents } = await sql<{
      n: number;
    }>`select (count(*) filter (where type in ('TransferReversed', 'MoneyRequestPaymentReversed')) * 2 + count(*) filter (where type = 'DepositReversed'))::int as n from ledger.events`.execute(
      harness.database.db,
    );
    expect(reversalRows[0]?.n).toBe(reversalEvents[0]?.n);
    expect((await verifyLedger(harness.database.db)).differences).toEqual([]);
  });
});

describe('API docs', () => {
  it('serves an OpenAPI document listing the routes with tags and summaries, and the browsable UI', async () => {
    const routes = await documentedRoutes();
    const names = routes.map((entry) => entry.route);
    for (const expected of [
      'POST /api/users/login',
      'POST /api/transactions/transfer-funds',
      'POST /api/transactions/settle-deposit',
      'POST /api/admin/reverse',
      'GET /api/admin/events/:position',
      'GET /api/health',
    ]) {
      expect(names).toContain(expected);
    }
    for (const entry of routes) {
      expect(entry.tags.length, entry.route).toBeGreaterThan(0);
      expect(entry.summary, entry.route).toBeTruthy();
    }
    expect(
      routes.filter((entry) => entry.route.includes('/api/admin/')).every((entry) => entry.tags.includes('admin')),
    ).toBe(true);
    expect(names.some((name) => name.startsWith('GET /api/docs'))).toBe(false);
    // Inputs validated by zod are documented from the same zod schemas.
    const spec = JSON.parse((await harness.call({ method: 'GET', url: '/api/docs/json' })).body) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<
                string,
                { schema: { properties: Record<string, { minLength?: number; maxLength?: number }> } }
              >;
            };
            parameters?: { name: string; in: string }[];
          }
        >
      >;
    };
    const reverseBody =
      spec.paths['/api/admin/reverse']?.post?.requestBody?.content['application/json']?.schema.properties;
    expect(reverseBody?.reason).toMatchObject({ minLength: 3, maxLength: 500 });
    expect(Object.keys(reverseBody ?? {})).toEqual(
      expect.arrayContaining(['streamId', 'transactionId', 'kind', 'reason']),
    );
    const explorerParameters = spec.paths['/api/admin/events']?.get?.parameters ?? [];
    expect(explorerParameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['stream', 'type', 'actor', 'from', 'to', 'after', 'limit']),
    );
    const ui = await harness.call({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});
