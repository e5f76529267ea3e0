/**
 * One pending deposit in full, opened from its row: who asked, when, how much, the reference
 * they were told to quote, and what they entered about where the money comes from (UPI ID,
 * or account number, IFSC and bank) - what the admin looks for on the bank statement.
 */
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { formatDateTime, formatRupees } from '../../../lib/format.ts';
import { methodLabel } from '../../../lib/method-label.ts';
import type { PendingDeposit } from '../api/get-pending-deposits.ts';
import styles from './DepositDetailDialog.module.css';
import { whose } from './deposit-words.ts';

function detailRows(deposit: PendingDeposit): [string, string][] {
  const t = i18next.t;
  const { payer } = deposit;
  const rows: [string, string | null][] = [
    [t('topUp.requestedAt'), formatDateTime(deposit.requestedAt)],
    [t('topUp.customer'), whose(deposit)],
    [t('topUp.wallet'), deposit.walletId],
    [t('topUp.method'), methodLabel(deposit.method)],
    [t('topUp.amount'), formatRupees(deposit.amount)],
    [t('topUp.reference'), deposit.reference],
    [t('users.depositId'), deposit.depositId],
    [t('topUp.payerUpiId'), payer.upiId],
    [t('topUp.payerAccount'), payer.accountNumber],
    [t('topUp.payerIfsc'), payer.ifscCode],
    [t('topUp.payerBankName'), payer.bankName],
    [t('topUp.waiting'), deposit.awaitingApproval?.requestedByName ?? deposit.awaitingApproval?.requestedBy ?? null],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null);
}

export function DepositDetailDialog({
  deposit,
  onClose,
}: {
  deposit: PendingDeposit | null;
  onClose: () => void;
}): ReactElement {
  const { t } = useTranslation();
  const names = deposit ? { amount: formatRupees(deposit.amount), name: whose(deposit) } : undefined;
  return (
    <Modal
      open={deposit !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={names ? t('topUp.detailTitle', names) : ''}
      description={t('topUp.detailDescription')}
    >
      {deposit ? (
        <dl className={styles.details} data-testid="deposit-detail">
          {detailRows(deposit).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd className="mono-wrap">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="modal-actions">
        <Button variant="secondary" onClick={onClose}>
          {t('topUp.close')}
        </Button>
      </div>
    </Modal>
  );
}
