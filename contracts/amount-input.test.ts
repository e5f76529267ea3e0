import { describe, expect, it } from 'vitest';
import { groupTypedRupees, searchedAmountPaise, ungroupRupees } from './amount-input.ts';
import { formatPaise } from './money.ts';
import { fieldErrors } from './fields.ts';
import { depositSchema, sendRequestSchema, transferSchema } from './transactions.ts';

describe('amounts as typed', () => {
  it('group en-IN while typing: last three digits, then pairs; nothing else rewritten', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['7', '7'],
      ['1000', '1,000'],
      ['100000', '1,00,000'],
      ['100000.5', '1,00,000.5'],
      ['100000.509', '1,00,000.509'],
      ['12345678', '1,23,45,678'],
      ['1,0,00,0', '10,000'],
      ['1.2.3', '1.2.3'],
      ['-5', '-5'],
      ['+5', '+5'],
      ['abc', 'abc'],
      ['.5', '0.5'],
      ['007', '7'],
      ['0', '0'],
      ['1000.', '1,000.'],
      ['₹ 2,500 abc', '₹ 2,500 abc'],
      ['1234567890123456789', '12,34,56,78,90,12,34,56,789'],
    ];
    for (const [typed, shown] of cases) expect(groupTypedRupees(typed), typed).toBe(shown);
    // Grouping what is shown changes nothing.
    for (const [, shown] of cases) expect(groupTypedRupees(shown)).toBe(shown);
  });

  it('read back only correctly grouped text', () => {
    expect(ungroupRupees('1,00,000.50')).toBe('100000.50');
    expect(ungroupRupees('12,345')).toBe('12345');
    expect(ungroupRupees('999')).toBe('999');
    expect(ungroupRupees('1,000,000')).toBe('1,000,000');
    expect(ungroupRupees('1,0,0')).toBe('1,0,0');
  });

  it('parse through the shared amount rules: grouped text is the same amount, bad grouping is refused', () => {
    const transfer = { receiver: 'abc', reference: 'rent', transactionPin: '1234' };
    expect(transferSchema.parse({ ...transfer, amount: '1,00,000.50' }).amount).toBe(10_000_050n);
    expect(transferSchema.parse({ ...transfer, amount: 100000.5 }).amount).toBe(10_000_050n);
    const bad = transferSchema.safeParse({ ...transfer, amount: '1,000,000' });
    expect(bad.success ? {} : fieldErrors(bad.error)).toEqual({ amount: 'Please enter a valid amount' });
    const deposit = depositSchema.safeParse({
      amount: '1,00,000.01',
      reference: 'top up',
      transactionPin: '1234',
      paymentMethod: 'upi',
      upiDetails: { upiId: 'ok@bank' },
    });
    expect(deposit.success ? {} : fieldErrors(deposit.error)).toEqual({
      amount: 'Maximum deposit amount is ₹1,00,000',
    });
    expect(sendRequestSchema.parse({ receiver: 'abc', amount: '10,00,000', reference: 'rent' }).amount).toBe(
      100_000_000n,
    );
  });

  it('show exact paise with both decimals', () => {
    expect(formatPaise(10_000_000n)).toBe('₹1,00,000.00');
    expect(formatPaise(12_575n)).toBe('₹125.75');
    expect(formatPaise(5n)).toBe('₹0.05');
    expect(formatPaise(-123_456_78n)).toBe('-₹1,23,456.78');
    expect(formatPaise(900_719_925_474_099_3n)).toBe('₹9,00,71,99,25,47,409.93');
  });
});

describe('searchedAmountPaise', () => {
  it('reads an amount as people type it in a search, and nothing else as one', () => {
    for (const text of ['4000.50', '4,000.50', '₹4000.5', '₹ 4,000.50', 'Rs 4000.50', 'rs.4000.5', 'INR 4000.50'])
      expect(searchedAmountPaise(text), text).toBe(400_050n);
    expect(searchedAmountPaise('1,00,000')).toBe(10_000_000n);
    expect(searchedAmountPaise('12')).toBe(1_200n);
    for (const text of ['rent', '4000.505', '-5', '0', '0.00', '4000.50 rent', '1,,000', ',100', '₹'])
      expect(searchedAmountPaise(text), text).toBeNull();
  });
});
