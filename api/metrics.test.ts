/**
 * /metrics (prom-client, a registry per app): request counts and latency by route template and
 * status, ledger appends and their time, command failures by reason, projection lag, the last
 * verify run, the PIN pool and the default process metrics; reachable from loopback or with
 * the operator token. (Both real processes are scraped in test/metrics-processes.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, registeredUser, signIn, startHarness, startSiblingApp, type Harness } from '../test/app-harness.ts';

const TOKEN = 'metrics-token-0123456789';
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ metricsToken: TOKEN });
}, 120_000);

afterAll(async () => {
  await harness.close();
});

async function scrape(
  options: { remoteAddress?: string; authorization?: string; headers?: Record<string, string> } = {},
  app = harness.app,
) {
  const headers = { ...options.headers, ...(options.authorization ? { authorization: options.authorization } : {}) };
  return app.inject({
    method: 'GET',
    url: '/metrics',
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    headers,
  });
}

it('counts requests by route template, ledger appends by command and failures by reason, and reports projection lag', async () => {
  const user = await registeredUser(harness, 'metrics@example.in');
  const adminToken = await signIn(harness, ADMIN.email, ADMIN.password);
  expect(adminToken).toBeTruthy();
  const other = await registeredUser(harness, 'other@example.in');
  // An empty wallet: the ledger refuses the transfer (insufficient_funds).
  const refused = await harness.call({
    method: 'POST',
    url: '/api/transactions/transfer-funds',
    headers: { authorization: `Bearer ${user.token}` },
    payload: { receiver: other.id, amount: 10, reference: 'too much', transactionPin: '1234' },
  });
  expect(refused.statusCode).toBe(400);

  const response = await scrape();
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain; version=0.0.4');
  expect(response.headers['cache-control']).toBe('no-store');
  const text = response.body;
  expect(text).toMatch(
    /^wallet_http_requests_total\{method="POST",route="\/api\/users\/login",status="200"\} [1-9]\d*$/m,
  );
  expect(text).toMatch(
    /^wallet_http_requests_total\{method="POST",route="\/api\/transactions\/transfer-funds",status="400"\} 1$/m,
  );
  expect(text).toMatch(
    /^wallet_http_request_duration_seconds_count\{method="POST",route="\/api\/users\/login",status="200"\} [1-9]\d*$/m,
  );
  expect(text).toMatch(
    /^wallet_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/api\/users\/login",status="200"\} [1-9]\d*$/m,
  );
  // Paths with ids are counted under their template, never one series per id.
  await harness.call({
    method: 'GET',
    url: '/api/admin/events/123',
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const afterIdRoute = (await scrape()).body;
  expect(afterIdRoute).toMatch(/route="\/api\/admin\/events\/:position"/);
  expect(afterIdRoute).not.toMatch(/route="\/api\/admin\/events\/123"/);
  expect(text).toMatch(/^wallet_ledger_appends_total\{command="openWallet"\} 2$/m);
  expect(text).toMatch(/^wallet_ledger_append_duration_seconds_count\{command="openWallet"\} 2$/m);
  expect(text).toMatch(/^wallet_command_failures_total\{command="transfer",reason="insufficient_funds"\} 1$/m);
  for (const projection of ['accounts', 'history', 'money_requests', 'statement_days']) {
    expect(text).toMatch(new RegExp(`^wallet_projection_lag_events\\{projection="${projection}"\\} \\d+$`, 'm'));
    expect(text).toMatch(new RegExp(`^wallet_projection_lag_seconds\\{projection="${projection}"\\} [\\d.]+$`, 'm'));
  }
  expect(text).toMatch(/^wallet_ledger_verify_differences 0$/m);
  expect(text).toMatch(/^wallet_pin_pool_queue_depth 0$/m);
  expect(text).toMatch(/^wallet_read_after_reply_timeouts_total 0$/m);
  // The default process metrics of this app's own registry.
  for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds'])
    expect(text).toMatch(new RegExp(`^${name} [\\d.e+]+$`, 'm'));
  expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  // The event loop's busy time only grows: the requests above ran callbacks.
  const activeSeconds = (body: string): number =>
    Number(/^wallet_event_loop_active_seconds_total ([\d.e+-]+)$/m.exec(body)?.[1] ?? Number.NaN);
  const before = activeSeconds(text);
  expect(before).toBeGreaterThan(0);
  const { body: later } = await scrape({});
  expect(activeSeconds(later)).toBeGreaterThan(before);
  // Every sample line is "name{labels} number" or "name number"; comments are HELP/TYPE; families end in a blank line.
  for (const line of text.split('\n').filter((candidate) => candidate !== ''))
    expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? (-?[\d.e+-]+|NaN|[+-]Inf))$/);
});

it('refuses scrapers off the host without the token (404), admits them with it', async () => {
  expect((await scrape({ remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
  expect(
    (await scrape({ remoteAddress: '203.0.113.9', authorization: 'Bearer wrong-token-0123456789' })).statusCode,
  ).toBe(404);
  expect((await scrape({ remoteAddress: '203.0.113.9', authorization: 'Bearer short' })).statusCode).toBe(404);
  const admitted = await scrape({ remoteAddress: '203.0.113.9', authorization: `Bearer ${TOKEN}` });
  expect(admitted.statusCode).toBe(200);
  expect(admitted.body).toContain('wallet_http_requests_total');
  expect((await scrape({ remoteAddress: '::1' })).statusCode).toBe(200);
});

it('behind a same-host proxy loopback is not enough: a forwarded request needs the token', async () => {
  // Without TRUST_PROXY_HOPS: a proxy on the host connects from loopback, and says so with its headers.
  const forwardings: Record<string, string>[] = [
    { 'x-forwarded-for': '203.0.113.9' },
    { forwarded: 'for=203.0.113.9' },
    { 'x-real-ip': '203.0.113.9' },
    { via: '1.1 nginx' },
  ];
  for (const headers of forwardings) {
    expect((await scrape({ remoteAddress: '127.0.0.1', headers })).statusCode, JSON.stringify(headers)).toBe(404);
    expect((await scrape({ remoteAddress: '127.0.0.1', headers, authorization: `Bearer ${TOKEN}` })).statusCode).toBe(
      200,
    );
  }
  // With TRUST_PROXY_HOPS set, every loopback caller may be the proxy, headers or not (nginx adds none by default).
  const proxied = await startSiblingApp(harness, { trustedProxies: { hops: 1, addresses: ['loopback'] } });
  try {
    expect((await scrape({ remoteAddress: '127.0.0.1' }, proxied)).statusCode).toBe(404);
    expect(
      (await scrape({ remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '127.0.0.1' } }, proxied)).statusCode,
    ).toBe(404);
    const admitted = await scrape({ remoteAddress: '127.0.0.1', authorization: `Bearer ${TOKEN}` }, proxied);
    expect(admitted.statusCode).toBe(200);
  } finally {
    await proxied.close();
  }
});
