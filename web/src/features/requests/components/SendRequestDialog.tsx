/**
 * Send Request (spec sections 2, 5, 8): account number with Verify (Verify, Verifying,
 * Verified; locked once verified), amount (grouped en-IN as typed, up to 10,00,000),
 * reference (counter n/500). Send is disabled until verified; Cancel or close resets
 * everything. The view; state and submission are useSendRequestForm.ts.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { focusFirstInvalid } from '../../../lib/focus.ts';
import { formatRupees } from '../../../lib/format.ts';
import { useSendRequestForm, type SendRequestForm } from './useSendRequestForm.ts';

export function SendRequestDialog({
  open,
  onOpenChange,
  userId,
  onSent,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  onSent?: () => void;
}): ReactElement {
  const form = useSendRequestForm({ userId, onOpenChange, onSent });
  const { values, errors, set, verified } = form;
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={form.close}
      title={t('requests.sendTitle')}
      description={t('requests.sendDescription')}
      busy={form.sending}
      busyLabel={t('requests.sending')}
    >
      <form
        onSubmit={(event) => {
          const formElement = event.currentTarget;
          void form.submit(event).then(() => focusFirstInvalid(formElement));
        }}
        noValidate
        className="form-stack"
        aria-label={t('requests.sendFormLabel')}
      >
        <RequestReceiver form={form} />
        <AmountField
          label={t('deposit.amount')}
          hint={t('requests.upTo', { amount: formatRupees(FORM_LIMITS.requestMaxRupees, { whole: true }) })}
          value={values.amount}
          onValueChange={set('amount')}
          error={errors.amount}
          placeholder="0.00"
        />
        <TextAreaField
          label={t('payment.reference')}
          maxLength={FORM_LIMITS.requestReferenceMaxLength}
          value={values.reference}
          onValueChange={set('reference')}
          error={errors.reference}
          placeholder={t('requests.referencePlaceholder')}
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={() => form.close(false)}>
            {t('deposit.cancel')}
          </Button>
          <Button type="submit" disabled={!verified || form.verifying || form.sending}>
            {t('requests.sendTitle')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** The account asked: its field with Verify (locked once verified), then who it is, with Change. */
function RequestReceiver({ form }: { form: SendRequestForm }): ReactElement {
  const { t } = useTranslation();
  const { verified } = form;
  const verifyLabel = form.verifying ? t('requests.verifying') : verified ? t('send.verified') : t('send.verify');
  return (
    <>
      <div className="verify-row">
        <TextField
          label={t('requests.accountNumber')}
          placeholder={t('requests.accountPlaceholder')}
          value={form.values.receiver}
          readOnly={Boolean(verified)}
          onValueChange={form.set('receiver')}
          error={form.errors.receiver}
          autoComplete="off"
        />
        <Button
          variant={verified ? 'success' : 'secondary'}
          onClick={() => void form.verify()}
          disabled={!form.canVerify}
        >
          {verifyLabel}
        </Button>
      </div>
      {verified ? (
        <VerifiedPanel
          name={verified.name}
          accountNumber={verified.accountNumber}
          bankName={verified.bankName}
          action={
            <Button variant="link" onClick={form.changeAccount}>
              {t('requests.changeAccount')}
            </Button>
          }
        />
      ) : null}
    </>
  );
}
