/**
 * A table on desktop (the design system's DataTable) and a list of cards on small screens,
 * each card listing the columns as label and value, so no admin screen scrolls sideways
 * on a phone.
 */
import type { ReactElement } from 'react';
import { DataTable, type Column } from '../../../components/ui/DataTable.tsx';
import './audit.css';

export function ResponsiveTable<Row extends { _id: string }>({
  rows,
  columns,
  caption,
}: {
  rows: Row[];
  columns: Column<Row>[];
  caption: string;
}): ReactElement {
  return (
    <>
      <div className="only-desktop">
        <DataTable rows={rows} columns={columns} caption={caption} />
      </div>
      <ul className="only-mobile audit-cards" aria-label={caption}>
        {rows.map((row) => (
          <li key={row._id} className="audit-card">
            <dl>
              {columns.map((column) => (
                <div key={column.id} style={{ display: 'contents' }}>
                  <dt>{column.header}</dt>
                  <dd>{column.cell(row)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

/** "Load more" under a keyset-paged list. */
export function LoadMore({
  hasMore,
  loading,
  onLoad,
  label = 'Load more',
}: {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  label?: string;
}): ReactElement | null {
  if (!hasMore) return null;
  return (
    <div className="audit-more">
      <button type="button" className="btn btn-secondary btn-md" onClick={onLoad} disabled={loading}>
        {loading ? 'Loading...' : label}
      </button>
    </div>
  );
}

/** A signed rupee amount, green for credits and red for debits. */
export function SignedAmount({ rupees, format }: { rupees: number; format: (value: number) => string }): ReactElement {
  return (
    <span className={rupees >= 0 ? 'amount-credit' : 'amount-debit'}>
      {rupees >= 0 ? '+' : '-'}
      {format(Math.abs(rupees))}
    </span>
  );
}
