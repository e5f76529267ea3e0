/**
 * How the statements word their lines: every event type that moves money, from each side,
 * the IST time at the edges of a day, and rupees in Indian grouping. Pure: no database.
 */
import { describe, expect, it } from 'vitest';
import { describeLine, istTime, requestedNote, rupeeText, type DescribedLine } from './statement-words.ts';

function line(
  event_type: DescribedLine['event_type'],
  amount_paise: bigint,
  counterparty_id: string,
  counterparty_name: string,
) {
  return { event_type, amount_paise, counterparty_id, counterparty_name } satisfies DescribedLine;
}

describe('describeLine', () => {
  it.each([
    [line('TransferCompleted', -500n, 'u-ravi', 'Ravi Kumar'), 'Paid to Ravi Kumar'],
    [line('TransferCompleted', 500n, 'u-asha', 'Asha Rao'), 'Received from Asha Rao'],
    [line('MoneyRequestAccepted', -500n, 'u-ravi', 'Ravi Kumar'), 'Paid to Ravi Kumar (money request)'],
    [line('MoneyRequestAccepted', 500n, 'u-asha', 'Asha Rao'), 'Received from Asha Rao (money request)'],
    [line('DepositSettled', 500n, 'funding:card', 'Card'), 'Added by card'],
    [line('DepositSettled', 500n, 'funding:upi', 'UPI'), 'Added by UPI'],
    [line('DepositSettled', 500n, 'funding:bank_transfer', 'Bank transfer'), 'Added by bank transfer'],
    // The funding account's side, in the admin's export of it.
    [line('DepositSettled', -500n, 'u-asha', 'Asha Rao'), 'Deposit to Asha Rao'],
    [line('DepositReversed', -500n, 'funding:card', 'Card'), 'Deposit reversed (card)'],
    [line('DepositReversed', 500n, 'u-asha', 'Asha Rao'), 'Deposit reversed from Asha Rao'],
    [line('TransferReversed', 500n, 'u-ravi', 'Ravi Kumar'), 'Payment reversed: refund from Ravi Kumar'],
    [line('TransferReversed', -500n, 'u-asha', 'Asha Rao'), 'Payment reversed: returned to Asha Rao'],
    [line('MoneyRequestPaymentReversed', 500n, 'u-ravi', 'Ravi Kumar'), 'Payment reversed: refund from Ravi Kumar'],
  ])('given %o, says %s', (given, words) => {
    expect(describeLine(given)).toBe(words);
  });

  it('falls back to the account id, then to words, when the name is unknown', () => {
    expect(describeLine({ ...line('TransferCompleted', -1n, 'u-x', ''), counterparty_name: null })).toBe('Paid to u-x');
    expect(
      describeLine({
        event_type: 'TransferCompleted',
        amount_paise: 1n,
        counterparty_id: null,
        counterparty_name: null,
      }),
    ).toBe('Received from another account');
  });
});

describe('describeLine in Hindi', () => {
  it.each([
    [line('TransferCompleted', -500n, 'u-ravi', 'Ravi Kumar'), 'Ravi Kumar को भुगतान किया'],
    [line('TransferCompleted', 500n, 'u-asha', 'आशा'), 'आशा से मिले'],
    [line('MoneyRequestAccepted', -500n, 'u-ravi', 'Ravi Kumar'), 'Ravi Kumar को भुगतान किया (पैसे का अनुरोध)'],
    [line('DepositSettled', 500n, 'funding:card', 'Card'), 'कार्ड से जोड़े गए'],
    [line('DepositSettled', 500n, 'funding:bank_transfer', 'Bank transfer'), 'बैंक ट्रांसफ़र से जोड़े गए'],
    [line('DepositReversed', -500n, 'funding:upi', 'UPI'), 'जमा रिवर्स हुआ (UPI)'],
    [line('TransferReversed', 500n, 'u-ravi', 'Ravi Kumar'), 'भुगतान रिवर्स हुआ: Ravi Kumar से रिफ़ंड'],
    [line('MoneyRequestPaymentReversed', -500n, 'u-asha', 'Asha Rao'), 'भुगतान रिवर्स हुआ: Asha Rao को लौटाया'],
  ])('given %o, says %s', (given, words) => {
    expect(describeLine(given, 'hi')).toBe(words);
  });

  it("says when a deposit was requested, in the reader's words", () => {
    const settled = {
      event_type: 'DepositSettled' as const,
      recorded_at: new Date('2025-03-10T05:00:00Z'),
      history_created_at: new Date('2025-03-09T05:00:00Z'),
    };
    expect(requestedNote(settled)).toBe(' (requested 9 Mar 2025, 10:30 am)');
    expect(requestedNote(settled, 'hi')).toBe(' (अनुरोध 9 Mar 2025, 10:30 am)');
  });
});

describe('istTime', () => {
  it('writes India Standard Time as the web app does, 12-hour with am/pm (statements said 23:59), across the UTC day boundary', () => {
    expect(istTime(new Date('2025-03-31T18:29:00Z'))).toBe('31 Mar 2025, 11:59 pm');
    expect(istTime(new Date('2025-03-31T18:30:00Z'))).toBe('1 Apr 2025, 12:00 am');
    expect(istTime(new Date('2026-11-26T08:35:00Z'))).toBe('26 Nov 2026, 2:05 pm');
    expect(istTime(new Date('2026-11-26T06:35:00Z'))).toBe('26 Nov 2026, 12:05 pm');
  });
});

describe('rupeeText', () => {
  it('groups in lakhs and crores, exactly from paise, the sign before the rupee sign', () => {
    expect(rupeeText(0n)).toBe('₹0.00');
    expect(rupeeText(5n)).toBe('₹0.05');
    expect(rupeeText(12_345_678n)).toBe('₹1,23,456.78');
    expect(rupeeText(-1_000_000_005n)).toBe('-₹1,00,00,000.05');
    // Beyond a float's exact integers: still exact.
    expect(rupeeText(900_719_925_474_099_312n)).toBe('₹9,00,71,99,25,47,40,993.12');
  });
});
