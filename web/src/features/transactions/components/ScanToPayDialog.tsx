/**
 * Scan to pay (spec sections 2, 4, 5, 8): scan or upload a wallet payment QR code, then the
 * verified-recipient card and the pay fields; Pay Now shows "Pay ₹X to <verified name>"
 * with Back / Confirm, then the PIN. The view; the scanner is QrScanner.tsx and the state
 * useScanToPay.ts.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { VerifiedPanel } from '../../../components/ui/VerifiedPanel.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { PayConfirmation, PayFields } from './PayFields.tsx';
import { QrScanner } from './QrScanner.tsx';
import styles from './ScanToPayDialog.module.css';
import { useScanToPay } from './useScanToPay.ts';
import { focusFirstInvalid } from '../../../lib/focus.ts';

export interface ScanToPayDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  balance: number;
}

export function ScanToPayDialog({ open, onOpenChange, userId, balance }: ScanToPayDialogProps): ReactElement {
  const { t } = useTranslation();
  const scan = useScanToPay({ userId, balance, onOpenChange });
  const { account, payment } = scan;
  return (
    <Modal
      open={open}
      onOpenChange={scan.close}
      title={t('scan.title')}
      description={t('scan.description')}
      busy={payment.paying}
      size="lg"
    >
      {payment.stage !== 'details' && account ? (
        <PayConfirmation payment={payment} payee={{ ...account, bankName: account.bankName ?? 'Default Bank' }} />
      ) : (
        <div className="form-stack">
          {!account ? (
            <QrScanner scan={scan} />
          ) : (
            <VerifiedPanel
              title={t('scan.recipientVerified')}
              name={account.name}
              accountNumber={account.accountNumber}
              bankName={account.bankName ?? 'Default Bank'}
              action={
                <Button variant="link" onClick={scan.scanAgain}>
                  {t('scan.scanAgain')}
                </Button>
              }
            />
          )}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!payment.review(scan.receiver, account !== null)) focusFirstInvalid(event.currentTarget);
            }}
            noValidate
            className="form-stack"
            aria-label={t('payment.pay')}
          >
            <PayFields values={payment.values} errors={payment.errors} onChange={payment.set} />
            <Notice tone="info" title={t('scan.important')}>
              <ul className={styles.infoList}>
                <li>{t('scan.instant')}</li>
                <li>{t('scan.checkName')}</li>
                <li>{t('scan.pinRequired')}</li>
                <li>{t('scan.enoughBalance')}</li>
              </ul>
            </Notice>
            <div className="modal-actions">
              <Button variant="secondary" onClick={() => scan.close(false)}>
                {t('deposit.cancel')}
              </Button>
              <Button type="submit" disabled={!account || payment.paying}>
                {t('scan.payNow')}
              </Button>
            </div>
          </form>
        </div>
      )}
    </Modal>
  );
}
