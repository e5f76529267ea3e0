/**
 * Transfer Funds (spec sections 2, 4, 5): verify the receiver first (the field then locks
 * and shows 'Verified' with name, account and bank), then amount and reference; Continue
 * shows "Pay ₹X to <verified name>" and the payee's number masked but for its last four (or
 * their handle) with Back / Confirm, and only then the PIN. The receiver may be an account
 * number, a mobile number or a handle (issue 43); a recent payee fills it with one tap.
 * `initialReceiver` (the /user/:accountNumber deep link) is verified as the dialog opens.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { maskedTail } from '../../../../../contracts/payees.ts';
import { SELF_TRANSFER_MESSAGE } from '../../../../../contracts/transactions.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { RecentPayeeLabel, RecentPayees } from '../../../components/ui/RecentPayees.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { useRecentPayees } from '../../../lib/api/recent-payees.ts';
import { focusFirstInvalid } from '../../../lib/focus.ts';
import { useRecipient, type RecipientAccount } from '../../../lib/use-recipient.ts';
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
  const recipient = useRecipient({ payees: true });
  const recentPayees = useRecentPayees();
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

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const reviewed = payment.review(receiver, recipient.status === 'verified', recipient.account?.payee?.key);
    if (!reviewed) focusFirstInvalid(event.currentTarget);
  }

  /** A recent payee: fills the field and verifies it, as typing and Verify would. */
  function pick(accountNumber: string): void {
    setReceiver(accountNumber);
    payment.setErrors((current) => ({ ...current, receiver: '' }));
    void verify(accountNumber);
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
        <PayConfirmation payment={payment} payee={shownPayee(recipient.account, t)} />
      ) : (
        <form onSubmit={submit} noValidate className="form-stack" aria-label={t('send.formLabel')}>
          {verified ? null : (
            <RecentPayees
              payees={recentPayees.data}
              action={(payee, className) => (
                <button type="button" className={className} onClick={() => pick(payee.accountNumber)}>
                  <RecentPayeeLabel payee={payee} />
                </button>
              )}
            />
          )}
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
              hint={verified ? undefined : t('payees.receiverHint')}
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
              accountNumber={recipient.account?.payee?.shown ?? recipient.account?.accountNumber ?? ''}
              numberLabel={recipient.account?.payee ? t(`payees.${recipient.account.payee.kind}`) : undefined}
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

/** The confirmation's payee: the name, and the number masked but for its last four (or the handle). */
function shownPayee(account: RecipientAccount, t: TFunction) {
  if (account.payee)
    return { name: account.name, accountNumber: account.payee.shown, numberLabel: t(`payees.${account.payee.kind}`) };
  return { name: account.name, accountNumber: maskedTail(account.accountNumber), bankName: account.bankName };
}
