/**
 * The amount field's edit step: what was typed becomes en-IN grouped text
 * (contracts/amount-input.ts; text that is not an amount stays as typed) and the caret stays after the same digit it followed, so
 * typing in the middle of "1,00,000" or deleting across a comma feels like a plain field.
 */
import { groupTypedRupees } from '../../../contracts/amount-input.ts';

export interface AmountEdit {
  value: string;
  caret: number;
}

/** Digits and the decimal point count; commas and anything dropped do not. */
function significantCount(text: string): number {
  return text.replace(/[^\d.]/g, '').length;
}

/** The position in `grouped` just after its `count`-th significant character. */
export function caretAfterSignificant(grouped: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < grouped.length; index += 1) {
    if (/[\d.]/.test(grouped[index] ?? '')) seen += 1;
    if (seen === count) return index + 1;
  }
  return grouped.length;
}

/**
 * The field's new text and caret. `previous` is what the field showed; `raw` and `caret` are
 * the input's value and selection after the browser applied the keystroke. A deletion that
 * only removed a comma deletes the digit beside it instead (the comma would come straight back).
 */
export function applyAmountEdit(
  previous: string,
  raw: string,
  caret: number,
  inputType: string | undefined,
): AmountEdit {
  let text = raw;
  let position = caret;
  const onlyCommaRemoved =
    raw.length < previous.length && raw.replace(/,/g, '') === previous.replace(/,/g, '') && raw !== '';
  if (onlyCommaRemoved && inputType === 'deleteContentForward') {
    text = raw.slice(0, position) + raw.slice(position + 1);
  } else if (onlyCommaRemoved && position > 0) {
    text = raw.slice(0, position - 1) + raw.slice(position);
    position -= 1;
  }
  const value = groupTypedRupees(text);
  // Text that is not an amount is kept as typed (and refused on the field): the caret too.
  if (value === text) return { value, caret: position };
  return { value, caret: caretAfterSignificant(value, significantCount(text.slice(0, position))) };
}
