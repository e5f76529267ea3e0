/**
 * The card forms' Pay button with the reason it is disabled said beside it (and read with it
 * by screen readers): a card deposit over the limit says so instead of a silent grey button.
 */
import { useId, type ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';

export function PayCardButton({
  label,
  reason,
  disabled,
  onPay,
}: {
  label: string;
  /** Why the deposit cannot be paid yet; shown only while Pay is disabled for it. */
  reason: string | undefined;
  disabled: boolean;
  onPay: () => void;
}): ReactElement {
  const reasonId = useId();
  const shownReason = disabled ? reason : undefined;
  return (
    <>
      <Button block size="lg" disabled={disabled} onClick={onPay} aria-describedby={shownReason ? reasonId : undefined}>
        {label}
      </Button>
      {shownReason ? (
        <p id={reasonId} className="field-hint pay-blocked-reason">
          {shownReason}
        </p>
      ) : null}
    </>
  );
}
