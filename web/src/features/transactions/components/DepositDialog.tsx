/**
 * Deposit Funds (spec sections 2, 4, 5, 8): amount, reference, PIN and a method - bank
 * transfer (account, IFSC, bank), UPI (id) or card ('Pay ₹{amount}' through the configured
 * provider). Bank transfer and UPI are submitted as pending; the dialog then says where to pay
 * (DepositInstructions.tsx); Cancel / Submit stay in sight while the fields scroll. The view;
 * state and submission are useDepositForm.ts.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_LIMITS } from '../../../../../contracts/transactions.ts';
import { AmountField } from '../../../components/ui/AmountField.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextAreaField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { focusFirstInvalid } from '../../../lib/focus.ts';
import { digitsOnly } from '../../../lib/forms.ts';
import { formatRupees } from '../../../lib/format.ts';
import styles from './DepositDialog.module.css';
import { DepositInstructions } from './DepositInstructions.tsx';
import { MethodChoice, MethodFields } from './DepositMethodFields.tsx';
import { useDepositForm, type DepositUser } from './useDepositForm.ts';

export interface DepositDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: DepositUser;
}

export function DepositDialog({ open, onOpenChange, user }: DepositDialogProps): ReactElement {
  const { t } = useTranslation();
  const form = useDepositForm({ user, onOpenChange });
  const { values, errors, set } = form;
  return (
    <Modal
      open={open}
      onOpenChange={form.close}
      title={t('deposit.title')}
      description={t('deposit.description')}
      busy={form.pending}
      size="lg"
    >
      {form.instructions ? (
        <DepositInstructions instructions={form.instructions} onDone={() => form.close(false)} />
      ) : (
        <form
          onSubmit={(event) => {
            const formElement = event.currentTarget;
            void form.submit(event).then(() => focusFirstInvalid(formElement));
          }}
          noValidate
          className="form-stack"
          aria-label={t('deposit.formLabel')}
        >
          <AmountField
            label={t('deposit.amount')}
            value={values.amount}
            onValueChange={set('amount')}
            error={errors.amount || form.liveAmountError}
            // The limits stay in sight while typing, under the field as Send and Request say theirs.
            hint={t('deposit.amountRange', {
              min: formatRupees(FORM_LIMITS.depositMinRupees, { whole: true }),
              max: formatRupees(FORM_LIMITS.depositMaxRupees, { whole: true }),
            })}
            placeholder="0.00"
          />
          <TextAreaField
            label={t('payment.reference')}
            maxLength={FORM_LIMITS.paymentReferenceMaxLength}
            value={values.reference}
            onValueChange={set('reference')}
            error={errors.reference}
          />
          <PasswordField
            label={t('payment.pin')}
            inputMode="numeric"
            autoComplete="off"
            value={values.transactionPin}
            onValueChange={set('transactionPin', (value) => digitsOnly(value, 6))}
            error={errors.transactionPin}
          />
          <MethodChoice form={form} />
          <MethodFields form={form} />
          {form.method !== 'card' ? (
            <div className={`modal-actions ${styles.actions}`}>
              <Button variant="secondary" onClick={() => form.close(false)}>
                {t('deposit.cancel')}
              </Button>
              <Button type="submit" disabled={form.pending}>
                {form.pending ? t('deposit.submitting') : t('deposit.submit')}
              </Button>
            </div>
          ) : null}
        </form>
      )}
    </Modal>
  );
}
