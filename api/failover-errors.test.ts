/**
 * During a failover the database answers in ways that all mean "not now": the router's
 * connection to the dead primary is reset or terminated, the old primary shuts down (57P01,
 * 57P02), a starting server refuses (57P03), a demoted primary still reached through the router
 * refuses writes (25006 read_only_sql_transaction). Each is a 503 `database_unavailable` with
 * `retry-after`, never a 500 (the client retries with the same Idempotency-Key, which settles
 * a payment whose COMMIT's reply was lost) and never a success.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS, installEnvelope, toEnvelopeError } from './envelope.ts';

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

const FAILOVER_ERRORS: [string, unknown][] = [
  ['25006 read_only_sql_transaction', pgError('25006', 'cannot execute INSERT in a read-only transaction')],
  ['57P01 admin_shutdown', pgError('57P01', 'terminating connection due to administrator command')],
  ['57P02 crash_shutdown', pgError('57P02', 'terminating connection because of crash of another server process')],
  ['57P03 cannot_connect_now', pgError('57P03', 'the database system is starting up')],
  ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
  ['connection terminated', new Error('Connection terminated unexpectedly')],
  ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
];

describe('database failures during a failover', () => {
  it.each(FAILOVER_ERRORS)('%s -> 503 database_unavailable', (_name, error) => {
    expect(toEnvelopeError(error)).toMatchObject({
      status: 503,
      body: { success: false, code: 'database_unavailable' },
    });
  });

  it('answers 503 with retry-after through the error handler', async () => {
    const app = Fastify({ logger: false });
    installEnvelope(app);
    app.post('/pay', () => {
      throw pgError('25006', 'cannot execute INSERT in a read-only transaction');
    });
    try {
      const reply = await app.inject({ method: 'POST', url: '/pay', payload: {} });
      expect(reply.statusCode).toBe(503);
      expect(reply.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(reply.json()).toMatchObject({ success: false, code: 'database_unavailable' });
    } finally {
      await app.close();
    }
  });

  it('leaves other database errors a 500 (a bug, not an outage)', () => {
    expect(toEnvelopeError(pgError('23505', 'duplicate key value violates unique constraint')).status).toBe(500);
  });
});
