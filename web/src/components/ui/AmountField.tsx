/**
 * The rupee amount input of every money form: a text field (a number input cannot show
 * commas) with the decimal keypad on phones, grouping digits en-IN as they are typed
 * ("1,00,000.50") with the caret kept beside the digit it followed. The value handed out is
 * the grouped text; the forms parse it with contracts/' amount rules, which read it back.
 * Nothing typed is rewritten: a sign, a letter or a third decimal stays in the field with the
 * amount rule's reason under it (amountTextProblem), and the form's schema refuses to send it.
 */
import { useLayoutEffect, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { AMOUNT_TEXT_MESSAGES, amountTextProblem } from '../../../../contracts/fields.ts';
import { applyAmountEdit } from '../../lib/amount-caret.ts';
import { TextField, type TextFieldProps } from './Field.tsx';

export type AmountFieldProps = Omit<TextFieldProps, 'type' | 'inputMode' | 'value' | 'min' | 'max' | 'step' | 'ref'> & {
  value: string;
};

/** The typed-text reasons (contracts' English, the server's words too) in the page's language. */
const REASON_KEYS = [
  [AMOUNT_TEXT_MESSAGES.negative, 'amountField.negative'],
  [AMOUNT_TEXT_MESSAGES.plusSign, 'amountField.plusSign'],
  [AMOUNT_TEXT_MESSAGES.characters, 'amountField.characters'],
  [AMOUNT_TEXT_MESSAGES.decimals, 'amountField.decimals'],
] as const;
const AMOUNT_TEXT_KEYS = new Map<string, (typeof REASON_KEYS)[number][1]>(REASON_KEYS);

export function AmountField({ value, onValueChange, onKeyDown, error, ...rest }: AmountFieldProps): ReactElement {
  const input = useRef<HTMLInputElement | null>(null);
  const pendingCaret = useRef<number | null>(null);
  // Which way a deletion went: a deleted comma takes the digit on that side with it.
  const lastKey = useRef<string>('');
  const { t } = useTranslation();

  // After React wrote the grouped value, put the caret back where the edit left it.
  useLayoutEffect(() => {
    const element = input.current;
    const caret = pendingCaret.current;
    pendingCaret.current = null;
    if (element && caret !== null && document.activeElement === element) element.setSelectionRange(caret, caret);
  }, [value]);

  function change(raw: string): void {
    const element = input.current;
    const caret = element?.selectionStart ?? raw.length;
    const edit = applyAmountEdit(value, raw, caret, lastKey.current === 'Delete' ? 'deleteContentForward' : undefined);
    pendingCaret.current = edit.caret;
    // The same text again (a comma typed where grouping puts none): no re-render follows, and React puts the old
    // text back into the input after this handler, so the caret is placed just after that.
    if (edit.value === value && element)
      queueMicrotask(() => {
        if (document.activeElement === element) element.setSelectionRange(edit.caret, edit.caret);
      });
    onValueChange(edit.value);
  }

  function localized(message: string | undefined): string | undefined {
    const key = message === undefined ? undefined : AMOUNT_TEXT_KEYS.get(message);
    return key ? t(key) : message;
  }

  return (
    <TextField
      {...rest}
      error={localized(amountTextProblem(value) || error || undefined)}
      ref={input}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
        lastKey.current = event.key;
        onKeyDown?.(event);
      }}
      onValueChange={change}
    />
  );
}
