/**
 * The history's controls: server-side search, type filter, the date range with the
 * statement downloads, and the 'N of M transactions' counter; below the list, pagination.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import type { HistoryType } from '../api/get-transactions.ts';
import styles from './HistoryToolbar.module.css';
import { StatementRange } from './StatementRange.tsx';
import type { useTransactionHistory } from './useTransactionHistory.ts';

type History = ReturnType<typeof useTransactionHistory>;

export function HistoryToolbar({ list }: { list: History }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={styles.toolbar}>
      <label className={styles.search}>
        <Icon name="search" size={18} />
        <span className="sr-only">{t('transactions.search')}</span>
        <input
          type="search"
          className="input"
          placeholder={t('transactions.searchPlaceholder')}
          value={list.search}
          onChange={(event) => list.setSearch(event.target.value)}
        />
      </label>
      <label className="filter">
        <span className="sr-only">{t('transactions.type')}</span>
        <select
          className="input"
          value={list.type}
          onChange={(event) => list.setType(event.target.value as HistoryType)}
          aria-label={t('transactions.typeFilter')}
        >
          <option value="all">{t('transactions.allTypes')}</option>
          <option value="credit">{t('transactions.typeCredit')}</option>
          <option value="debit">{t('transactions.typeDebit')}</option>
          <option value="deposit">{t('transactions.typeDeposit')}</option>
        </select>
      </label>
      <StatementRange from={list.range.from} to={list.range.to} onChange={list.setRange} />
      <p className={`counter ${styles.counter}`} aria-live="polite">
        {t('transactions.counter', { shown: list.totalText, total: list.allTotal })}
      </p>
    </div>
  );
}

export function HistoryPagination({ list }: { list: History }): ReactElement {
  const { t } = useTranslation();
  return (
    <nav className={`pagination ${styles.pagination}`} aria-label={t('transactions.pagination')}>
      <span>{t('transactions.showing', { first: list.first, last: list.last, total: list.totalText })}</span>
      <div>
        <Button variant="secondary" size="sm" disabled={list.page <= 1} onClick={list.previous}>
          {t('transactions.previous')}
        </Button>
        <Button variant="secondary" size="sm" disabled={!list.hasNext} onClick={list.next}>
          {t('transactions.next')}
        </Button>
      </div>
    </nav>
  );
}
