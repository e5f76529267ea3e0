/**
 * The dispute deciders, pure (given a payment stream's events, when a command, then the event
 * or the refusal): only the payer disputes, once at a time, never a reversed payment; a
 * rejection needs the open dispute and an admin who is no party; a reversal closes it.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../events.ts';
import { decideRaiseDispute, decideRejectDispute, decideReopenDispute, decideUpholdDispute } from './dispute.ts';

let position = 0n;
function recorded(event: Pick<RecordedEvent, 'type' | 'data'>): RecordedEvent {
  position += 1n;
  return {
    ...event,
    position,
    txId: '1',
    streamId: 'transfer-t1',
    streamVersion: Number(position),
    metadata: {},
    recordedAt: new Date(0),
  } as RecordedEvent;
}

const completed = recorded({
  type: 'TransferCompleted',
  data: { transferId: 't1', fromAccountId: 'asha', toAccountId: 'ravi', amountPaise: 12_050n, reference: 'rent' },
});
const raise = { disputeId: 'd1', kind: 'transfer' as const, transactionId: 't1', reason: 'paid twice' };
const raised = recorded(decideRaiseDispute([completed], raise, 'asha'));

describe('raising a dispute', () => {
  it("records the payment's parties and amount with the payer's reason", () => {
    expect(raised.type).toBe('DisputeRaised');
    expect(raised.data).toEqual({
      disputeId: 'd1',
      kind: 'transfer',
      transactionId: 't1',
      payerId: 'asha',
      payeeId: 'ravi',
      amountPaise: 12_050n,
      reason: 'paid twice',
    });
  });

  it.each([
    ['the payee', [completed], 'ravi', raise, 'not_disputable'],
    ['no payment', [], 'asha', raise, 'transaction_not_found'],
    ['the wrong kind', [completed], 'asha', { ...raise, kind: 'request' as const }, 'transaction_not_found'],
    ['a dispute already open', [completed, raised], 'asha', raise, 'dispute_already_open'],
    ['a short reason', [completed], 'asha', { ...raise, reason: ' x ' }, 'invalid_reason'],
  ])('is refused for %s', (_name, events, actor, input, code) => {
    expect(() => decideRaiseDispute(events, input, actor)).toThrow(expect.objectContaining({ code }));
  });

  it('is refused once the payment is reversed (the reversal resolved the dispute)', () => {
    const reversed = recorded({
      type: 'TransferReversed',
      data: {
        transferId: 't1',
        fromAccountId: 'asha',
        toAccountId: 'ravi',
        amountPaise: 12_050n,
        reason: 'refund',
        reversedBy: 'admin',
        reversesPosition: '1',
      },
    });
    expect(() => decideRaiseDispute([completed, raised, reversed], raise, 'asha')).toThrow(
      expect.objectContaining({ code: 'already_reversed' }),
    );
    expect(() => decideRejectDispute([completed, raised, reversed], { ...raise, reason: 'too late' }, 'admin')).toThrow(
      expect.objectContaining({ code: 'dispute_not_open' }),
    );
  });
});

describe('rejecting a dispute', () => {
  const input = { kind: 'transfer' as const, transactionId: 't1', disputeId: 'd1', reason: 'delivered' };

  it('closes the open dispute with the admin and the reason; the payer may raise another', () => {
    const rejected = recorded(decideRejectDispute([completed, raised], input, 'admin'));
    expect(rejected.data).toEqual({
      disputeId: 'd1',
      kind: 'transfer',
      transactionId: 't1',
      payerId: 'asha',
      reason: 'delivered',
      rejectedBy: 'admin',
    });
    expect(decideRaiseDispute([completed, raised, rejected], { ...raise, disputeId: 'd2' }, 'asha').type).toBe(
      'DisputeRaised',
    );
  });

  it.each([
    ['no open dispute', [completed], 'admin', input, 'dispute_not_open'],
    ['another dispute id', [completed, raised], 'admin', { ...input, disputeId: 'd9' }, 'dispute_not_open'],
    ['an admin who was paid', [completed, raised], 'ravi', input, 'actor_is_party'],
  ])('is refused for %s', (_name, events, actor, request, code) => {
    expect(() => decideRejectDispute(events, request, actor)).toThrow(expect.objectContaining({ code }));
  });
});

describe('upholding a dispute (its reversal filed for a second admin)', () => {
  const input = { kind: 'transfer' as const, transactionId: 't1', disputeId: 'd1', reason: 'refund', approvalId: 'a1' };

  it('records the admin, the reason and the approval the reversal waits for, once per approval', () => {
    const upheld = recorded(decideUpholdDispute([completed, raised], input, 'admin'));
    expect(upheld.data).toEqual({
      disputeId: 'd1',
      kind: 'transfer',
      transactionId: 't1',
      payerId: 'asha',
      reason: 'refund',
      upheldBy: 'admin',
      approvalId: 'a1',
    });
    expect(() => decideUpholdDispute([completed, raised, upheld], input, 'admin')).toThrow(
      expect.objectContaining({ code: 'dispute_already_upheld' }),
    );
    // The approval turned down, another admin files a new one: it is upheld again.
    expect(decideUpholdDispute([completed, raised, upheld], { ...input, approvalId: 'a2' }, 'admin').type).toBe(
      'DisputeUpheld',
    );
  });

  it.each([
    ['no open dispute', [completed], 'admin', 'dispute_not_open'],
    ['an admin who paid', [completed, raised], 'asha', 'actor_is_party'],
  ])('is refused for %s', (_name, events, actor, code) => {
    expect(() => decideUpholdDispute(events, input, actor)).toThrow(expect.objectContaining({ code }));
  });
});

describe('reopening a dispute (a second admin turned its reversal down)', () => {
  const uphold = {
    kind: 'transfer' as const,
    transactionId: 't1',
    disputeId: 'd1',
    reason: 'refund',
    approvalId: 'a1',
  };
  const upheld = recorded(decideUpholdDispute([completed, raised], uphold, 'admin'));
  const input = {
    kind: 'transfer' as const,
    transactionId: 't1',
    disputeId: 'd1',
    reason: ' delivered ',
    approvalId: 'a1',
  };

  it('records the rejecting admin, their reason (or none) and the approval; the dispute may be upheld again', () => {
    const reopened = recorded(decideReopenDispute([completed, raised, upheld], input, 'second'));
    expect(reopened.data).toEqual({
      disputeId: 'd1',
      kind: 'transfer',
      transactionId: 't1',
      payerId: 'asha',
      reason: 'delivered',
      reopenedBy: 'second',
      approvalId: 'a1',
    });
    expect(
      decideReopenDispute([completed, raised, upheld], { ...input, reason: null }, 'second').data.reason,
    ).toBeNull();
    expect(() => decideReopenDispute([completed, raised, upheld, reopened], input, 'second')).toThrow(
      expect.objectContaining({ code: 'dispute_not_upheld' }),
    );
  });

  it('is refused to a party to the payment: the payee (an admin too) cannot keep the refund from running', () => {
    for (const party of ['ravi', 'asha'])
      expect(() => decideReopenDispute([completed, raised, upheld], input, party)).toThrow(
        expect.objectContaining({ code: 'actor_is_party' }),
      );
  });

  it.each([
    ['no open dispute', [completed], 'dispute_not_open'],
    ['a dispute never upheld', [completed, raised], 'dispute_not_upheld'],
  ])('is refused for %s', (_name, events, code) => {
    expect(() => decideReopenDispute(events, input, 'second')).toThrow(expect.objectContaining({ code }));
  });

  it('is refused for another approval than the one the dispute waits for', () => {
    expect(() => decideReopenDispute([completed, raised, upheld], { ...input, approvalId: 'a2' }, 'second')).toThrow(
      expect.objectContaining({ code: 'dispute_not_upheld' }),
    );
  });
});
