/**
 * Transfer Funds (spec sections 2, 4, 5): verify the receiver first (the field then locks
 * and shows 'Verified' with name, account and bank), then amount and reference; Continue
 * shows "Pay ₹X to <verified name>" with Back / Confirm, and only then the PIN.
 * `initialReceiver` (the /user/:accountNumber deep link) is verified as the dialog opens.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { SELF_TRANSFER_MESSAGE } from '../../../../../contracts/transactions.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { useRecipient } from '../../../lib/use-recipient.ts';
import { focusPayAmount, PayConfirmation, PayFields } from './PayFields.tsx';
import styles from './TransferDialog.module.css';
import { usePayment } from './usePayment.ts';

export interface TransferDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  balance: number;
  initialReceiver?: string | undefined;
}

export function TransferDialog({
  open,
  onOpenChange,
  userId,
  balance,
  initialReceiver,
}: TransferDialogProps): ReactElement {
  const [receiver, setReceiver] = useState('');
  const recipient = useRecipient();
  const notify = useToast();
  const { t } = useTranslation();
  const payment = usePayment({ userId, balance, onPaid: () => close(false) });
  const autoVerified = useRef<string | null>(null);

  function close(next: boolean): void {
    if (!next) {
      setReceiver('');
      recipient.clear();
      payment.reset();
    }
    onOpenChange(next);
  }

  async function verify(value: string = receiver): Promise<void> {
    if (!value.trim()) {
      payment.setErrors((current) => ({ ...current, receiver: t('send.accountRequired') }));
      return;
    }
    if (value.trim() === userId) {
      payment.setErrors((current) => ({ ...current, receiver: SELF_TRANSFER_MESSAGE }));
      return;
    }
    const outcome = await recipient.verify(value);
    if (outcome.ok) {
      payment.setErrors((current) => ({ ...current, receiver: '' }));
      notify({ tone: 'success', message: t('send.accountVerified'), durationMs: 3000 });
      focusPayAmount();
    } else {
      payment.setErrors((current) => ({ ...current, receiver: outcome.message }));
    }
  }

  useEffect(() => {
    if (!open || !initialReceiver || autoVerified.current === initialReceiver) return;
    autoVerified.current = initialReceiver;
    setReceiver(initialReceiver);
    void verify(initialReceiver);
    // verify is recreated each render; the ref, not the dependency list, guards against repeats.
  }, [open, initialReceiver]);

  function submit(event: FormEvent): void {
    event.preventDefault();
    payment.review(receiver, recipient.status === 'verified');
  }

  const verified = recipient.status === 'verified' && recipient.account;
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={t('send.title')}
      description={t('send.description')}
      busy={payment.paying}
    >
      {payment.stage !== 'details' && recipient.account ? (
        <PayConfirmation payment={payment} payee={recipient.account} />
      ) : (
        <form onSubmit={submit} noValidate className="form-stack" aria-label={t('send.formLabel')}>
          <div className="verify-row">
            <TextField
              label={t('send.receiver')}
              value={receiver}
              readOnly={Boolean(verified)}
              onValueChange={(value) => {
                setReceiver(value);
                recipient.clear();
                payment.setErrors((current) => ({ ...current, receiver: '' }));
              }}
              error={payment.errors.receiver}
              placeholder={t('send.receiverPlaceholder')}
              autoComplete="off"
              adornment={verified ? <span className={styles.verifiedBadge}>{t('send.verified')}</span> : null}
            />
            {verified ? (
              <Button
                variant="secondary"
                onClick={() => {
                  recipient.clear();
                  setReceiver('');
                }}
              >
                {t('send.change')}
              </Button>
            ) : (
              <Button variant="secondary" onClick={() => void verify()} disabled={recipient.status === 'verifying'}>
                {recipient.status === 'verifying' ? t('send.verifying') : t('send.verify')}
              </Button>
            )}
          </div>
          {verified ? (
            <VerifiedPanel
              title={t('send.verified')}
              name={recipient.account?.name ?? ''}
              accountNumber={recipient.account?.accountNumber ?? ''}
              bankName={recipient.account?.bankName}
            />
          ) : null}
          <PayFields values={payment.values} errors={payment.errors} onChange={payment.set} />
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => close(false)}>
              {t('deposit.cancel')}
            </Button>
            <Button type="submit">{t('send.continue')}</Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
