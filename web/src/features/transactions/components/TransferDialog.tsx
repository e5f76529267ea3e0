/**
 * Transfer Funds (spec sections 2, 4, 5): verify the receiver first (the field then locks
 * and shows 'Verified' with name, account and bank), then amount and reference; Continue
 * shows "Pay ₹X to <verified name>" and the payee's number masked but for its last four (or
 * their handle) with Back / Confirm, and only then the PIN. The receiver may be an account
 * number, a mobile number or a handle (issue 43); a recent payee fills it with one tap.
 * `initialReceiver` (the /user/:accountNumber deep link) is verified as the dialog opens.
 * The view; state and Continue are useTransferDialog.ts, the payment usePayment.ts.
 */
import type { ReactElement } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { maskedTail } from '../../../../../contracts/payees.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { RecentPayeeLabel, RecentPayees } from '../../../components/ui/RecentPayees.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { useRecentPayees } from '../../../lib/api/recent-payees.ts';
import type { RecipientAccount } from '../../../lib/use-recipient.ts';
import { PayConfirmation, PayFields } from './PayFields.tsx';
import styles from './TransferDialog.module.css';
import { useTransferDialog, type TransferDialogProps, type TransferDialogState } from './useTransferDialog.ts';

export function TransferDialog(props: TransferDialogProps): ReactElement {
  const dialog = useTransferDialog(props);
  const { payment, recipient } = dialog;
  const { t } = useTranslation();
  return (
    <Modal
      open={props.open}
      onOpenChange={dialog.close}
      title={t('send.title')}
      description={t('send.description')}
      busy={payment.paying}
    >
      {payment.stage !== 'details' && recipient.account ? (
        <PayConfirmation payment={payment} payee={shownPayee(recipient.account, t)} />
      ) : (
        <TransferForm dialog={dialog} />
      )}
    </Modal>
  );
}

/** The details stage: the payee (recent ones while none is verified), then amount and reference. */
function TransferForm({ dialog }: { dialog: TransferDialogState }): ReactElement {
  const { t } = useTranslation();
  const recentPayees = useRecentPayees();
  const { payment, recipient } = dialog;
  const verified = recipient.status === 'verified' ? recipient.account : null;
  return (
    <form onSubmit={dialog.submit} noValidate className="form-stack" aria-label={t('send.formLabel')}>
      {verified ? null : (
        <RecentPayees
          payees={recentPayees.data}
          action={(payee, className) => (
            <button type="button" className={className} onClick={() => dialog.pick(payee.accountNumber)}>
              <RecentPayeeLabel payee={payee} />
            </button>
          )}
        />
      )}
      <ReceiverRow dialog={dialog} verified={verified !== null} />
      {verified ? (
        <VerifiedPanel
          title={t('send.verified')}
          name={verified.name}
          accountNumber={verified.payee?.shown ?? verified.accountNumber}
          numberLabel={verified.payee ? t(`payees.${verified.payee.kind}`) : undefined}
          bankName={verified.bankName}
        />
      ) : null}
      <PayFields values={payment.values} errors={payment.errors} onChange={payment.set} />
      <div className="modal-actions">
        <Button variant="secondary" onClick={() => dialog.close(false)}>
          {t('deposit.cancel')}
        </Button>
        <Button type="submit">{t('send.continue')}</Button>
      </div>
    </form>
  );
}

/** The payee field with Verify, or locked with Change once verified. */
function ReceiverRow({ dialog, verified }: { dialog: TransferDialogState; verified: boolean }): ReactElement {
  const { t } = useTranslation();
  const verifying = dialog.recipient.status === 'verifying';
  return (
    <div className="verify-row">
      <TextField
        label={t('send.receiver')}
        value={dialog.receiver}
        readOnly={verified}
        onValueChange={dialog.edit}
        error={dialog.payment.errors.receiver}
        placeholder={t('send.receiverPlaceholder')}
        hint={verified ? undefined : t('payees.receiverHint')}
        autoComplete="off"
        adornment={verified ? <span className={styles.verifiedBadge}>{t('send.verified')}</span> : null}
      />
      {verified ? (
        <Button variant="secondary" onClick={dialog.change}>
          {t('send.change')}
        </Button>
      ) : (
        <Button variant="secondary" onClick={() => void dialog.verify()} disabled={verifying}>
          {verifying ? t('send.verifying') : t('send.verify')}
        </Button>
      )}
    </div>
  );
}

/** The confirmation's payee: the name, and the number masked but for its last four (or the handle). */
function shownPayee(account: RecipientAccount, t: TFunction) {
  if (account.payee)
    return { name: account.name, accountNumber: account.payee.shown, numberLabel: t(`payees.${account.payee.kind}`) };
  return { name: account.name, accountNumber: maskedTail(account.accountNumber), bankName: account.bankName };
}
