/**
 * A table on desktop (the design system's DataTable) and a list of cards on small screens,
 * each card listing the columns as label and value, so no admin screen scrolls sideways
 * on a phone. Both carry the caption as their accessible name.
 */
import type { ReactElement } from 'react';
import { CardList } from '../CardList/CardList.tsx';
import { DataTable, type Column } from '../ui/DataTable.tsx';
import styles from './ResponsiveTable.module.css';

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
      <CardList
        rows={rows}
        label={caption}
        cardClassName={styles.card}
        renderCard={(row) => (
          <dl>
            {columns.map((column) => (
              <div key={column.id} style={{ display: 'contents' }}>
                <dt>{column.header}</dt>
                <dd>{column.cell(row)}</dd>
              </div>
            ))}
          </dl>
        )}
      />
    </>
  );
}
