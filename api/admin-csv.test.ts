/**
 * The statement CSV streams: 100,000 statement rows download over a real socket while the
 * process's resident memory stays within a bound (sampled every few milliseconds), and
 * every row arrives once, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ADMIN, signIn, startHarness, type Harness } from '../test/app-harness.ts';

const ROWS = 100_000;
const ACCOUNT = 'bulk-account';
/** Streaming in batches of 2,000 stays well under this; loading the rows at once goes far over it (tried; bench/RESULTS.md). */
const MAX_RSS_GROWTH_BYTES = 100 * 1024 * 1024;

let harness: Harness;
let adminToken: string;
let baseUrl: string;

beforeAll(async () => {
  harness = await startHarness();
  adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  // Read rows only (this file's database is its own): a statement of 100,000 postings of 1
  // rupee each, inserted in one statement.
  await sql`
    insert into read.statement_lines (account_id, position, tx_id, sequence, event_type, stream_id, transaction_id, counterparty_id,
                                      counterparty_name, amount_paise, balance_after_paise, recorded_at)
    select ${ACCOUNT}, 1000000 + n, '1'::xid8, n, 'TransferCompleted', 'transfer-bulk-' || n, 'bulk-' || n, 'someone', 'Some One',
           100, 100 * n, timestamptz '2026-01-01' + n * interval '1 second'
      from generate_series(1, ${ROWS}) as n`.execute(harness.database.db);
  baseUrl = await harness.app.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);

afterAll(async () => {
  await harness.close();
});

it(`streams a ${ROWS.toLocaleString('en')}-row statement as CSV with bounded memory`, async () => {
  // Garbage is collected often during the download, so the peak measures what the stream
  // holds, not how long V8 lets garbage pile up before a major collection (which alone grows
  // the heap by ~100 MB for 100,000 rows of any query).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let peakHeap = 0;
  let peakExternal = 0;
  const sampler = setInterval(() => {
    gc();
    const usage = process.memoryUsage();
    peak = Math.max(peak, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakExternal = Math.max(peakExternal, usage.external + usage.arrayBuffers);
  }, 25);
  try {
    const response = await fetch(`${baseUrl}/api/admin/accounts/${ACCOUNT}/statement.csv`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.body).not.toBeNull();
    // Count lines as the bytes arrive, without decoding them into strings (the client's own
    // garbage would be measured too: it runs in this process); keep the first and last bytes.
    let lines = 0;
    let head = '';
    let tail = new Uint8Array(0);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      if (head.length < 300) head += new TextDecoder().decode(chunk.subarray(0, 300));
      tail = chunk.length >= 200 ? chunk.slice(-200) : Uint8Array.from([...tail, ...chunk]).slice(-200);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(lines).toBe(ROWS + 1);
    const [header, first] = head.split('\n');
    expect(header).toBe(
      'sequence,position,recorded_at,event_type,stream_id,transaction_id,counterparty_id,counterparty_name,amount_rupees,balance_after_rupees',
    );
    expect(first).toBe(
      '1,1000001,2026-01-01T00:00:01.000Z,TransferCompleted,transfer-bulk-1,bulk-1,someone,Some One,1.00,1.00',
    );
    const last = new TextDecoder().decode(tail).trimEnd().split('\n').at(-1);
    expect(last).toBe(
      `${ROWS},${1_000_000 + ROWS},2026-01-02T03:46:40.000Z,TransferCompleted,transfer-bulk-${ROWS},bulk-${ROWS},someone,Some One,1.00,${ROWS}.00`,
    );
    const growth = peak - baseline;
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    console.log(
      `after gc heap ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(1)} MB rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(1)} baseline ${(baseline / 1024 / 1024).toFixed(1)}`,
    );
    console.log(
      `statement.csv: ${ROWS} rows; peak RSS growth ${(growth / 1024 / 1024).toFixed(1)} MB, peak heap ${(peakHeap / 1024 / 1024).toFixed(1)} MB, peak buffers ${(peakExternal / 1024 / 1024).toFixed(1)} MB`,
    );
    expect(growth).toBeLessThan(MAX_RSS_GROWTH_BYTES);
  } finally {
    clearInterval(sampler);
  }
}, 120_000);
