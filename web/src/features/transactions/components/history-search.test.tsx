/**
 * The history search spends few calls (the spec's 100 per 15 minutes): 'groceries' typed
 * letter by letter sends one search, not nine; a search replaced by the next one is aborted
 * in flight; an unfiltered history asks for no separate total.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TransactionRecord } from '../../../../../contracts/transactions.ts';
import { renderWithApp, USER } from '../../../test/harness.tsx';
import { TransactionsPage } from './TransactionsPage.tsx';

interface HistoryCall {
  body: { page?: number; pageSize?: number; search?: string };
  signal: AbortSignal | undefined;
}

const ROW: TransactionRecord = {
  _id: 't-1',
  sender: USER._id,
  receiver: 'user-ravi-2',
  amount: 100,
  reference: 'groceries',
  status: 'success',
  type: 'debit',
  method: 'transfer',
  counterpartyId: 'user-ravi-2',
  counterpartyName: 'Ravi Kumar',
  createdAt: '2026-11-01T10:00:00.000Z',
};

const HISTORY_PATH = '/api/transactions/get-all-transactions-by-user';
const NOT_FOUND = { success: false, message: 'Not found' };

/** The history endpoint as `fetch` (its calls recorded); searches for `held` get no reply until aborted. */
function historyServer(held = ''): HistoryCall[] {
  const calls: HistoryCall[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    if (new URL(input, 'http://localhost').pathname !== HISTORY_PATH)
      return Promise.resolve(new Response(JSON.stringify(NOT_FOUND), { status: 404 }));
    const body = JSON.parse(String(init.body ?? '{}')) as HistoryCall['body'];
    calls.push({ body, signal: init.signal ?? undefined });
    if (held && body.search === held)
      return new Promise((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
      );
    const total = body.search ? 1 : 40;
    const data = { items: [ROW], total, totalExact: true, page: body.page ?? 1, pageSize: body.pageSize ?? 10 };
    return Promise.resolve(new Response(JSON.stringify({ success: true, message: 'ok', data }), { status: 200 }));
  });
  return calls;
}

function typeLetterByLetter(word: string): void {
  const input = screen.getByPlaceholderText(/search/i);
  act(() => {
    for (let end = 1; end <= word.length; end += 1) fireEvent.change(input, { target: { value: word.slice(0, end) } });
  });
}

const searches = (calls: HistoryCall[]) => calls.filter((call) => call.body.search !== undefined);

describe('history search', () => {
  it('sends one search for a word typed letter by letter, and no total while unfiltered', async () => {
    const calls = historyServer();
    renderWithApp(<TransactionsPage user={USER} onResetPin={() => undefined} />);
    expect(await screen.findByText('40 of 40 transactions')).toBeTruthy();
    expect(calls).toHaveLength(1);

    typeLetterByLetter('groceries');
    expect(await screen.findByText('1 of 40 transactions')).toBeTruthy();
    expect(searches(calls).map((call) => call.body.search)).toEqual(['groceries']);
    expect(searches(calls)[0]?.body.page).toBe(1);
    // With a filter on, the unfiltered total ("of 40") is asked for once, one row.
    expect(calls.filter((call) => call.body.pageSize === 1)).toHaveLength(1);
  });

  it('aborts the search in flight when a new one replaces it', async () => {
    const calls = historyServer('rent');
    renderWithApp(<TransactionsPage user={USER} onResetPin={() => undefined} />);
    expect(await screen.findByText('40 of 40 transactions')).toBeTruthy();

    typeLetterByLetter('rent');
    await waitFor(() => expect(searches(calls).map((call) => call.body.search)).toEqual(['rent']));
    const first = searches(calls)[0];
    expect(first?.signal?.aborted).toBe(false);

    typeLetterByLetter('rents');
    await waitFor(() => expect(searches(calls).map((call) => call.body.search)).toEqual(['rent', 'rents']));
    await waitFor(() => expect(first?.signal?.aborted).toBe(true));
    expect(await screen.findByText('1 of 40 transactions')).toBeTruthy();
  });
});
