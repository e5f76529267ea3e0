/**
 * History entries in people's words (history-words.ts): payments, receipts, requests,
 * deposits by method, reversals, and the amount tone (pending is not money in).
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { receivedMessage } from '../app/live-cache.ts';
import { amountTone, historyTitle, type HistoryEntry } from './history-words.ts';

const ME = 'user-asha-1';
const RAVI = 'user-ravi-2';

function entry(patch: Partial<HistoryEntry>): HistoryEntry {
  return {
    sender: ME,
    receiver: RAVI,
    type: 'debit',
    method: 'transfer',
    status: 'success',
    counterpartyName: 'Ravi Kumar',
    counterpartyId: RAVI,
    ...patch,
  };
}

describe('history in people\u2019s words', () => {
  it.each<[string, Partial<HistoryEntry>, string]>([
    ['a payment', {}, 'Paid to Ravi Kumar'],
    ['money received', { sender: RAVI, receiver: ME, type: 'credit' }, 'Received from Ravi Kumar'],
    ['a request I paid', { method: 'request' }, 'Paid request from Ravi Kumar'],
    [
      'my request paid',
      { sender: RAVI, receiver: ME, type: 'credit', method: 'request' },
      'Request paid by Ravi Kumar',
    ],
    ['a card deposit', { receiver: ME, type: 'deposit', method: 'card', counterpartyName: 'Card' }, 'Added by card'],
    ['a UPI deposit', { receiver: ME, type: 'deposit', method: 'upi' }, 'Added by UPI'],
    ['a bank deposit', { receiver: ME, type: 'deposit', method: 'bank_transfer' }, 'Added by bank transfer'],
    ['a reversal taken back', { method: 'reversal' }, 'Reversal to Ravi Kumar'],
    ['a name not known', { counterpartyName: null }, `Paid to ${RAVI}`],
  ])('titles %s', (_case, patch, title) => {
    expect(historyTitle(entry(patch), ME)).toBe(title);
  });

  it('says them in Hindi, and the money-received toast too, after the language switch', async () => {
    await i18next.changeLanguage('hi');
    expect(historyTitle(entry({}), ME)).toBe('Ravi Kumar को भुगतान किया');
    expect(historyTitle(entry({ sender: RAVI, receiver: ME, type: 'credit' }), ME)).toBe('Ravi Kumar से मिले');
    expect(historyTitle(entry({ receiver: ME, type: 'deposit', method: 'card' }), ME)).toBe('कार्ड से जोड़े गए');
    expect(receivedMessage('50000', 'Asha Rao')).toBe('Asha Rao से ₹500 मिले');
  });

  it('draws only settled money in as money in: pending and failed deposits have tones of their own', () => {
    const deposit = { receiver: ME, type: 'deposit' as const, method: 'upi' };
    expect(amountTone(entry({ ...deposit, status: 'pending' }), ME)).toBe('pending');
    expect(amountTone(entry({ ...deposit, status: 'failed' }), ME)).toBe('failed');
    expect(amountTone(entry({ ...deposit, status: 'success' }), ME)).toBe('credit');
    expect(amountTone(entry({}), ME)).toBe('debit');
  });
});
