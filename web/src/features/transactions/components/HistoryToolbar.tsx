/**
 * The history's controls: server-side search, type filter, the date range with the
 * statement downloads, and the 'N of M transactions' counter; below the list, pagination.
 */
import type { ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Icon } from '../../../components/ui/icons.tsx';
import type { HistoryType } from '../api/get-transactions.ts';
import styles from './HistoryToolbar.module.css';
import { StatementRange } from './StatementRange.tsx';
import type { useTransactionHistory } from './useTransactionHistory.ts';

type History = ReturnType<typeof useTransactionHistory>;

export function HistoryToolbar({ list }: { list: History }): ReactElement {
  return (
    <div className={styles.toolbar}>
      <label className={styles.search}>
        <Icon name="search" size={18} />
        <span className="sr-only">Search transactions</span>
        <input
          type="search"
          className="input"
          placeholder="Search transactions..."
          value={list.search}
          onChange={(event) => list.setSearch(event.target.value)}
        />
      </label>
      <label className="filter">
        <span className="sr-only">Type</span>
        <select
          className="input"
          value={list.type}
          onChange={(event) => list.setType(event.target.value as HistoryType)}
          aria-label="Type filter"
        >
          <option value="all">All Types</option>
          <option value="credit">Credit</option>
          <option value="debit">Debit</option>
          <option value="deposit">Deposit</option>
        </select>
      </label>
      <StatementRange from={list.range.from} to={list.range.to} onChange={list.setRange} />
      <p className={`counter ${styles.counter}`} aria-live="polite">
        {list.totalText} of {list.allTotal} transactions
      </p>
    </div>
  );
}

export function HistoryPagination({ list }: { list: History }): ReactElement {
  return (
    <nav className={`pagination ${styles.pagination}`} aria-label="Pagination">
      <span>
        Showing {list.first}–{list.last} of {list.totalText} transactions
      </span>
      <div>
        <Button variant="secondary" size="sm" disabled={list.page <= 1} onClick={list.previous}>
          Previous
        </Button>
        <Button variant="secondary" size="sm" disabled={!list.hasNext} onClick={list.next}>
          Next
        </Button>
      </div>
    </nav>
  );
}
