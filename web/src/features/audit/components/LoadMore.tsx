/**
 * Pieces of the admin audit lists: "Load more" under a keyset-paged list, and a signed
 * amount coloured by direction.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './Audit.module.css';

/** "Load more" under a keyset-paged list. */
export function LoadMore({
  hasMore,
  loading,
  onLoad,
  label,
}: {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  label?: string;
}): ReactElement | null {
  const { t } = useTranslation();
  if (!hasMore) return null;
  return (
    <div className={styles.auditMore}>
      <button type="button" className="btn btn-secondary btn-md" onClick={onLoad} disabled={loading}>
        {loading ? t('audit.loadingMore') : (label ?? t('audit.loadMore'))}
      </button>
    </div>
  );
}

/** A signed rupee amount, green for credits and red for debits. */
export function SignedAmount({ rupees, format }: { rupees: number; format: (value: number) => string }): ReactElement {
  return (
    <span className={rupees >= 0 ? styles.amountCredit : styles.amountDebit}>
      {rupees >= 0 ? '+' : '-'}
      {format(Math.abs(rupees))}
    </span>
  );
}
