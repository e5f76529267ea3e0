/**
 * GET /api/requests/get-all-requests-by-user is bounded: newest first, 100 by default (the
 * spec's client sends no parameter and gets the newest 100 in the same shape), `limit` up to
 * 500, and `before=<_id>` for the requests older than one the caller already has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredUser, startHarness, type Harness } from '../test/app-harness.ts';
import { allCaughtUp, drainUntil } from '../test/read-model.ts';

const SENT_BY_ASHA = 125;
const SENT_BY_RAVI = 20;
const TOTAL = SENT_BY_ASHA + SENT_BY_RAVI;

let h: Harness;
let asha: { id: string; token: string };
let ravi: { id: string; token: string };

interface Listed {
  _id: string;
  createdAt: string;
  reference: string;
  sender: { _id: string };
  receiver: { _id: string };
}

beforeAll(async () => {
  h = await startHarness();
  const a = await registeredUser(h, 'asha.requests@example.in');
  const r = await registeredUser(h, 'ravi.requests@example.in');
  asha = { id: a.id, token: a.token ?? '' };
  ravi = { id: r.id, token: r.token ?? '' };
  const ask = async (from: { token: string }, to: string, reference: string) => {
    const reply = await h.call({
      method: 'POST',
      url: '/api/requests/send-request',
      headers: { authorization: `Bearer ${from.token}` },
      payload: { receiver: to, amount: 1, reference },
    });
    if (reply.statusCode !== 200) throw new Error(`send-request: ${reply.body}`);
  };
  // Interleaved, so the newest page holds requests both sent and received.
  for (let index = 0; index < SENT_BY_ASHA; index++) {
    await ask(asha, ravi.id, `asha asks ${index}`);
    if (index % 6 === 0 && index / 6 < SENT_BY_RAVI) await ask(ravi, asha.id, `ravi asks ${index / 6}`);
  }
  // Until every request is projected: a transaction open elsewhere on the server can hold
  // some back past one drain (vitest.config.ts).
  await drainUntil(h.database.db, () => allCaughtUp(h.database.db), 60_000);
}, 180_000);

afterAll(async () => {
  await h.close();
});

async function list(query = '', token = asha.token) {
  const reply = await h.call({
    method: 'GET',
    url: `/api/requests/get-all-requests-by-user${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: reply.statusCode, body: reply.json() as { success: boolean; code?: string; data?: Listed[] } };
}

describe('get-all-requests-by-user', () => {
  it("answers the spec's client (no parameters) with the newest 100, newest first, as a plain array", async () => {
    const everything = await list('?limit=500');
    expect(everything.body.data).toHaveLength(TOTAL);
    const all = everything.body.data ?? [];
    const times = all.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(all.map((item) => item._id)).size).toBe(TOTAL);

    const plain = await list();
    expect(plain.status).toBe(200);
    expect(plain.body.success).toBe(true);
    expect(Array.isArray(plain.body.data)).toBe(true);
    expect(plain.body.data?.map((item) => item._id)).toEqual(all.slice(0, 100).map((item) => item._id));
    // Both directions are in the newest page.
    expect(plain.body.data?.some((item) => item.sender._id === ravi.id)).toBe(true);
    expect(plain.body.data?.some((item) => item.sender._id === asha.id)).toBe(true);
  });

  it('pages with limit and before=<_id>: every request once, in order, and a short page is the last', async () => {
    const all = (await list('?limit=500')).body.data ?? [];
    const walked: string[] = [];
    let before = '';
    for (let pages = 0; pages < 100; pages++) {
      const page = (await list(`?limit=40${before ? `&before=${before}` : ''}`)).body.data ?? [];
      walked.push(...page.map((item) => item._id));
      if (page.length < 40) break;
      before = page.at(-1)?._id ?? '';
    }
    expect(walked).toEqual(all.map((item) => item._id));
    // The other party's view is bounded the same way.
    expect((await list('?limit=3', ravi.token)).body.data).toHaveLength(3);
  });

  it('refuses a limit outside 1..500 and a before that is not one of your requests', async () => {
    for (const query of ['?limit=0', '?limit=501', '?limit=abc', '?before=', '?before=no-such-request']) {
      const refused = await list(query);
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toMatchObject({ success: false, code: 'validation_failed' });
    }
    // Someone else's request id is no cursor of yours.
    const carol = await registeredUser(h, 'carol.requests@example.in');
    const ashasNewest = (await list('?limit=1')).body.data?.[0]?._id ?? '';
    expect((await list(`?before=${ashasNewest}`, carol.token ?? '')).status).toBe(400);
  });
});
