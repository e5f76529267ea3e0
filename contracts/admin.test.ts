/**
 * The admin wire rules restate the server's lists and limits (contracts/ imports no server
 * code): these tests fail when one side changes alone. Then the request schemas' messages.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_REASON_LENGTH as LEDGER_MAX_REASON,
  MIN_REASON_LENGTH as LEDGER_MIN_REASON,
  REVERSAL_KINDS as LEDGER_REVERSAL_KINDS,
  type LedgerEventType,
} from '../ledger/index.ts';
import { PROJECTION_NAMES as PROJECTIONS } from '../projections/index.ts';
import { firstMessage } from './fields.ts';
import {
  EVENT_TYPES,
  MAX_REASON_LENGTH,
  MIN_REASON_LENGTH,
  PROJECTION_NAMES,
  REVERSAL_KINDS,
  projectionParamsSchema,
  reasonSchema,
  reverseSchema,
  statementQuerySchema,
} from './admin.ts';

/** True only when A and B are the same union: a new event type in either alone fails the type check. */
type SameUnion<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventTypesAgree: SameUnion<(typeof EVENT_TYPES)[number], LedgerEventType> = true;

describe('the admin contract agrees with the server', () => {
  it('has the ledger event types, reversal kinds and reason limits, and the projection names', () => {
    expect(eventTypesAgree).toBe(true);
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(REVERSAL_KINDS).toEqual(LEDGER_REVERSAL_KINDS);
    expect([MIN_REASON_LENGTH, MAX_REASON_LENGTH]).toEqual([LEDGER_MIN_REASON, LEDGER_MAX_REASON]);
    expect(PROJECTION_NAMES).toEqual(PROJECTIONS);
  });
});

describe('admin requests', () => {
  const messageOf = (result: { success: boolean; error?: Parameters<typeof firstMessage>[0] }) =>
    result.success || !result.error ? undefined : firstMessage(result.error);

  it('a reason is 3 to 500 characters once trimmed', () => {
    expect(messageOf(reasonSchema.safeParse(undefined))).toBe('A reason is required');
    expect(messageOf(reasonSchema.safeParse('  ab  '))).toBe('A reason of at least 3 characters is required');
    expect(messageOf(reasonSchema.safeParse('x'.repeat(501)))).toBe('Reason must be at most 500 characters');
    expect(reasonSchema.parse('  abc ')).toBe('abc');
  });

  it('a reversal names a stream, or a transaction id and its kind', () => {
    expect(reverseSchema.parse({ streamId: 'deposit-d_1', reason: 'recalled' })).toEqual({
      kind: 'deposit',
      transactionId: 'd_1',
      reason: 'recalled',
    });
    expect(reverseSchema.parse({ transactionId: 't1', kind: 'transfer', reason: 'mistake' })).toEqual({
      kind: 'transfer',
      transactionId: 't1',
      reason: 'mistake',
    });
    expect(messageOf(reverseSchema.safeParse({ streamId: 'wallet-abc', reason: 'whatever' }))).toBe(
      'streamId must name a transfer, deposit or request stream',
    );
    expect(messageOf(reverseSchema.safeParse({ transactionId: 't1', reason: 'whatever' }))).toBe(
      'Give streamId, or transactionId and kind (transfer, deposit or request)',
    );
  });

  it('statement types and projection names are checked by name', () => {
    expect(statementQuerySchema.parse({ type: 'TransferCompleted, DepositReversed' }).type).toEqual([
      'TransferCompleted',
      'DepositReversed',
    ]);
    expect(messageOf(statementQuerySchema.safeParse({ type: 'NotAnEvent' }))).toBe('Unknown event type NotAnEvent');
    expect(messageOf(projectionParamsSchema.safeParse({ name: 'nope' }))).toBe(
      'Unknown projection; one of accounts, history, money_requests, statement_days',
    );
  });
});
