/**
 * Test support for events recorded at a chosen time (statements per day need events on
 * several days). The ledger stamps `recorded_at` with its column default, now(); in a test
 * database the owner makes that default read a session setting first, so a runtime
 * connection that sets `wallet_test.recorded_at` appends events "recorded" then, through
 * the real `ledger.append`. Only ever done to a test file's own throwaway database.
 */
import type pg from 'pg';
import { withClient } from '../platform/database.ts';
import { rawAppend, type RawEvent } from './raw-append.ts';

export async function allowBackdatedEvents(ownerUrl: string): Promise<void> {
  await withClient(ownerUrl, (client) =>
    client.query(`alter table ledger.events alter column recorded_at
                    set default coalesce(nullif(current_setting('wallet_test.recorded_at', true), '')::timestamptz, now())`),
  );
}

/** Appends `events` as recorded at `recordedAt` (the setting lasts for this append's transaction). */
export async function appendRecordedAt(
  client: pg.Client | pg.PoolClient,
  recordedAt: Date,
  streamId: string,
  expectedVersion: number,
  events: RawEvent[],
): Promise<string> {
  await client.query('begin');
  try {
    await client.query(`select set_config('wallet_test.recorded_at', $1, true)`, [recordedAt.toISOString()]);
    const checkpoint = await rawAppend(client, streamId, expectedVersion, events);
    await client.query('commit');
    return checkpoint;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
