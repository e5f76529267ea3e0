/**
 * The amount field: en-IN grouping as digits are typed, the caret beside the digit it
 * followed (typing in the middle, deleting across a comma); signs, letters and a third
 * decimal kept as typed and refused with the amount rule's reason on the field.
 */
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import i18next from 'i18next';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { AmountField } from './AmountField.tsx';

function Harness(): ReactElement {
  const [value, setValue] = useState('');
  return <AmountField label="Amount (₹)" value={value} onValueChange={setValue} />;
}

function field(): HTMLInputElement {
  return screen.getByLabelText('Amount (₹)') as HTMLInputElement;
}

describe('amount field', () => {
  it('groups en-IN as you type', async () => {
    render(<Harness />);
    await userEvent.type(field(), '1234567.89');
    expect(field().value).toBe('12,34,567.89');
    expect(field().inputMode).toBe('decimal');
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it.each([
    ['1.234', '1.234', 'Amount can have at most 2 decimal places'],
    ['-5', '-5', 'Amount cannot be negative'],
    ['abc', 'abc', 'Amount can contain only digits and one decimal point'],
    ['1000x', '1,000x', 'Amount can contain only digits and one decimal point'],
  ])('refuses %s rather than rewriting it, with the reason on the field', async (typed, shown, reason) => {
    render(<Harness />);
    await userEvent.type(field(), typed);
    expect(field().value).toBe(shown);
    expect(field().getAttribute('aria-invalid')).toBe('true');
    const describedBy = field().getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(reason);
  });

  it('gives the reason in Hindi after the language switch', async () => {
    await i18next.changeLanguage('hi');
    render(<Harness />);
    await userEvent.type(field(), '-5');
    const describedBy = field().getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('राशि ऋणात्मक नहीं हो सकती');
  });

  it('accepts the amount again once the bad character is taken back', async () => {
    render(<Harness />);
    await userEvent.type(field(), '1000.505');
    expect(field().getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(field(), '{Backspace}');
    expect(field().value).toBe('1,000.50');
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('keeps the caret after the digit typed in the middle, and Backspace on a comma takes the digit before it', async () => {
    render(<Harness />);
    await userEvent.type(field(), '100000');
    expect(field().value).toBe('1,00,000');
    // Caret after the first "1": type 5 -> 15,00,000 with the caret after the 5.
    await userEvent.type(field(), '5', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(field().value).toBe('15,00,000');
    expect(field().selectionStart).toBe(2);
    // Caret after the first comma ("15,|00,000"): Backspace removes the 5, not just the comma.
    await userEvent.type(field(), '{Backspace}', { initialSelectionStart: 3, initialSelectionEnd: 3 });
    expect(field().value).toBe('1,00,000');
    expect(field().selectionStart).toBe(1);
    // Delete right before a comma ("1|,00,000") removes the digit after it.
    await userEvent.type(field(), '{Delete}', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(field().value).toBe('10,000');
    expect(field().selectionStart).toBe(1);
  });
});
