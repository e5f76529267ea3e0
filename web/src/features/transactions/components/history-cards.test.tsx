/**
 * The history's phone cards (TransactionList.tsx) in people's words: "Paid to Ravi Kumar"
 * rather than "Debit", "Added by card", a pending deposit's amount drawn as pending (not in
 * the green of settled money), and the app's one date format (en-IN, India Standard Time).
 */
import { render, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../../../../contracts/transactions.ts';
import { TransactionList } from './TransactionList.tsx';

const ME = 'user-asha-1';

function record(patch: Partial<TransactionRecord>): TransactionRecord {
  return {
    _id: 'tx-paid-0001',
    sender: ME,
    receiver: 'user-ravi-2',
    amount: 400,
    reference: 'dinner split',
    status: 'success',
    type: 'debit',
    method: 'transfer',
    counterpartyId: 'user-ravi-2',
    counterpartyName: 'Ravi Kumar',
    createdAt: '2026-11-27T14:05:00.000Z',
    ...patch,
  };
}

const ITEMS = [
  record({}),
  record({ _id: 'tx-got-0002', sender: 'user-ravi-2', receiver: ME, type: 'credit', amount: 125.75 }),
  record({
    _id: 'tx-card-0003',
    receiver: ME,
    type: 'deposit',
    method: 'card',
    counterpartyId: 'funding:card',
    counterpartyName: 'Card',
    amount: 1500,
  }),
  record({
    _id: 'tx-upi-0004',
    receiver: ME,
    type: 'deposit',
    method: 'upi',
    status: 'pending',
    counterpartyId: 'funding:upi',
    counterpartyName: 'UPI',
    amount: 250,
  }),
];

function cards(): HTMLElement[] {
  const { container } = render(<TransactionList items={ITEMS} userId={ME} />);
  return [...container.querySelectorAll<HTMLElement>('.card-list .list-card')];
}

describe('history cards', () => {
  it("title each card in people's words, with the date in India Standard Time", () => {
    const shown = cards();
    expect(shown.map((card) => card.querySelector('.history-title')?.textContent)).toEqual([
      'Paid to Ravi Kumar',
      'Received from Ravi Kumar',
      'Added by card',
      'Added by UPI',
    ]);
    // 14:05 UTC is 7:35 pm in India.
    expect(within(shown[0] as HTMLElement).getByText(/27 Nov 2026, 7:35 pm/)).toBeTruthy();
  });

  it('draw a pending deposit as pending, settled money in green, money out in red', () => {
    const tone = (card: HTMLElement | undefined) => card?.querySelector('.amount')?.className ?? '';
    const [paid, received, card, pending] = cards();
    expect(tone(paid)).toContain('amount-debit');
    expect(tone(received)).toContain('amount-credit');
    expect(tone(card)).toContain('amount-credit');
    expect(tone(pending)).toContain('amount-pending');
    expect(tone(pending)).not.toContain('amount-credit');
  });
});

describe('a card’s transaction id', () => {
  it('shows the random end of a UUIDv7, not its time-ordered start, with the whole id as its title', () => {
    // Two ids made in the same minute: the first 8 characters are the same, the last 8 are not.
    const first = '019ac6b1-7e2a-7c41-9d3e-5a1f0b2c3d4e';
    const second = '019ac6b1-7e2b-7f02-8a6c-91e4d7f8a0b1';
    const { container } = render(
      <TransactionList items={[record({ _id: first }), record({ _id: second })]} userId={ME} />,
    );
    const ids = [...container.querySelectorAll<HTMLElement>('.list-card .mono')];
    expect(ids.map((id) => id.textContent)).toEqual(['...0b2c3d4e', '...d7f8a0b1']);
    expect(ids.map((id) => id.title)).toEqual([first, second]);
  });
});
