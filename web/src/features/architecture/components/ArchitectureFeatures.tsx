/**
 * The architecture page's lists: what users and admins can do, and what the ledger guarantees.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './ArchitecturePage.module.css';

export function ArchitectureFeatures(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={styles.archFeatures}>
      <section>
        <h2>{t('architecture.forUsers')}</h2>
        <ul>
          <li>{t('architecture.userTransfers')}</li>
          <li>{t('architecture.userDeposits')}</li>
          <li>{t('architecture.userQr')}</li>
          <li>{t('architecture.userRequests')}</li>
          <li>{t('architecture.userReset')}</li>
        </ul>
      </section>
      <section>
        <h2>{t('architecture.forAdmins')}</h2>
        <ul>
          <li>{t('architecture.adminList')}</li>
          <li>{t('architecture.adminVerify')}</li>
          <li>{t('architecture.adminSettle')}</li>
        </ul>
      </section>
      <section>
        <h2>{t('architecture.guarantees')}</h2>
        <ul>
          <li>{t('architecture.ledger')}</li>
          <li>{t('architecture.noNegative')}</li>
          <li>{t('architecture.idempotent')}</li>
          <li>{t('architecture.readYourWrites')}</li>
        </ul>
      </section>
    </div>
  );
}
