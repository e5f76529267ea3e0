/**
 * The history's phone cards (TransactionList.tsx) in people's words: "Paid to Ravi Kumar"
 * rather than "Debit", "Added by card", "UPI deposit, pending", "To ..." and "From ..." (not
 * "Sent to" for money received), a pending deposit's amount drawn as pending (not in the
 * green of settled money), and the app's one date format (en-IN, India Standard Time).
 */
import { cleanup, render, within } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router-dom';
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
  const { container } = render(<TransactionList items={ITEMS} userId={ME} />, { wrapper: MemoryRouter });
  return [...container.querySelectorAll<HTMLElement>('.card-list .list-card')];
}

describe('history cards', () => {
  it("title each card in people's words, with the date in India Standard Time", () => {
    const shown = cards();
    expect(shown.map((card) => card.querySelector('.history-title')?.textContent)).toEqual([
      'Paid to Ravi Kumar',
      'Received from Ravi Kumar',
      'Added by card',
      'UPI deposit, pending',
    ]);
    // 14:05 UTC is 7:35 pm in India.
    expect(within(shown[0] as HTMLElement).getByText(/27 Nov 2026, 7:35 pm/)).toBeTruthy();
  });

  it("say a bank or UPI deposit's time is when it was requested, as the statement does, in both languages", async () => {
    const shown = cards();
    expect(within(shown[3] as HTMLElement).getByText(/^Requested 27 Nov 2026, 7:35 pm · /)).toBeTruthy();
    expect(shown[2]?.textContent).not.toMatch(/Requested/);
    cleanup();
    await i18next.changeLanguage('hi');
    try {
      expect(within(cards()[3] as HTMLElement).getByText(/^अनुरोध 27/)).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('say who the money went to, and who sent money received ("From", not "Sent to"), in both languages', async () => {
    const line = (card: HTMLElement | undefined) => card?.querySelector('.muted.small')?.textContent ?? '';
    const [paid, received, card] = cards();
    expect(line(paid)).toBe('27 Nov 2026, 7:35 pm · To Ravi Kumar (user-rav)');
    expect(line(received)).toBe('27 Nov 2026, 7:35 pm · From Ravi Kumar (user-rav)');
    expect(line(card)).toBe('27 Nov 2026, 7:35 pm · Self');
    cleanup();
    await i18next.changeLanguage('hi');
    const [paidHindi, receivedHindi, , pendingHindi] = cards();
    expect(line(paidHindi)).toContain('Ravi Kumar (user-rav) को');
    expect(line(receivedHindi)).toContain('Ravi Kumar (user-rav) से');
    expect(pendingHindi?.querySelector('.history-title')?.textContent).toBe('UPI से जमा, लंबित');
  });

  it('head the desktop column "To / From" in English and Hindi', async () => {
    const header = () =>
      render(<TransactionList items={ITEMS} userId={ME} />, { wrapper: MemoryRouter }).getAllByRole('columnheader')[4];
    expect(header()?.textContent).toBe('To / From');
    cleanup();
    await i18next.changeLanguage('hi');
    expect(header()?.textContent).toBe('किसे / किससे');
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
      { wrapper: MemoryRouter },
    );
    const ids = [...container.querySelectorAll<HTMLElement>('.list-card .mono')];
    expect(ids.map((id) => id.textContent)).toEqual(['...0b2c3d4e', '...d7f8a0b1']);
    expect(ids.map((id) => id.title)).toEqual([first, second]);
  });
});

describe('a failed deposit', () => {
  it("shows the admin's reason under its status, on the card and in the table", () => {
    const failed = record({
      _id: 'tx-upi-0005',
      receiver: ME,
      type: 'deposit',
      method: 'upi',
      status: 'failed',
      counterpartyId: 'funding:upi',
      counterpartyName: 'UPI',
      amount: 120,
      failureReason: 'No matching credit on the bank statement',
    });
    const { container } = render(<TransactionList items={[failed, record({})]} userId={ME} />, {
      wrapper: MemoryRouter,
    });
    const reasons = [...container.querySelectorAll('.failure-reason')].map((node) => node.textContent);
    expect(reasons).toEqual([
      'Reason: No matching credit on the bank statement',
      'Reason: No matching credit on the bank statement',
    ]);
  });
});

describe("a row's own page", () => {
  it('is linked from every row: the id in the table, the title on the phone card', () => {
    const { container } = render(<TransactionList items={ITEMS} userId={ME} />, { wrapper: MemoryRouter });
    const targets = (selector: string) =>
      [...container.querySelectorAll<HTMLAnchorElement>(selector)].map((link) => link.getAttribute('href'));
    const pages = ITEMS.map((item) => `/transactions/${item._id}`);
    expect(targets('table tbody a')).toEqual(pages);
    expect(targets('.card-list a.history-title')).toEqual(pages);
  });
});
