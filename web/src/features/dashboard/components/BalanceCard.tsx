/**
 * The dashboard's balance card: the exact balance to the paisa (en-IN) with hide/show, and
 * the account number with copy. The spec rounds it to whole rupees; a wallet must never show
 * more than can be spent (docs/decisions/0012).
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/icons.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { formatBalance } from '../../../lib/format.ts';
import styles from './BalanceCard.module.css';

export function BalanceCard({ accountNumber, balance }: { accountNumber: string; balance: number }): ReactElement {
  const [hidden, setHidden] = useState(false);
  const notify = useToast();
  const { t } = useTranslation();

  async function copyAccount(): Promise<void> {
    try {
      await navigator.clipboard.writeText(accountNumber);
      notify({ tone: 'success', message: t('dashboard.accountCopied'), durationMs: 3000 });
    } catch {
      notify({ tone: 'error', message: t('dashboard.copyFailed') });
    }
  }

  return (
    <section className={styles.card} aria-label={t('dashboard.balance')}>
      <div className="row-between">
        <p className={styles.label}>{t('dashboard.availableBalance')}</p>
        <button
          type="button"
          className="icon-button icon-button-light"
          onClick={() => setHidden((value) => !value)}
          aria-label={hidden ? t('dashboard.showBalance') : t('dashboard.hideBalance')}
          aria-pressed={hidden}
        >
          <Icon name={hidden ? 'eye' : 'eyeOff'} />
        </button>
      </div>
      <p className={styles.value} data-testid="balance">
        {hidden ? '****' : formatBalance(balance)}
      </p>
      <div className={styles.accountRow}>
        <div>
          <p className={styles.label}>{t('dashboard.accountNumber')}</p>
          <p className={`mono account-number ${styles.accountNumber}`}>{accountNumber}</p>
        </div>
        <button
          type="button"
          className="btn btn-light btn-sm"
          onClick={() => void copyAccount()}
          aria-label={t('dashboard.copyAccount')}
        >
          <Icon name="copy" size={16} /> {t('dashboard.copy')}
        </button>
      </div>
    </section>
  );
}
