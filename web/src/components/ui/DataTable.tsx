/**
 * A plain, accessible table on @tanstack/react-table (v9 headless core): the caller gives
 * display columns; rows are keyed by `_id`.
 */
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import type { ReactElement, ReactNode } from 'react';

export const tableFeatureSet = tableFeatures({});
export type Features = typeof tableFeatureSet;

export interface Column<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  align?: 'left' | 'right';
}

export function DataTable<Row extends { _id: string }>({
  rows,
  columns,
  caption,
}: {
  rows: Row[];
  columns: Column<Row>[];
  caption: string;
}): ReactElement {
  const definitions: ColumnDef<Features, Row>[] = columns.map((column) => ({
    id: column.id,
    header: column.header,
    cell: (context) => column.cell(context.row.original),
    meta: { align: column.align ?? 'left' },
  }));
  const table = useTable<Features, Row>({
    features: tableFeatureSet,
    columns: definitions,
    data: rows,
    getRowId: (row) => row._id,
  });
  const alignOf = (id: string) => columns.find((column) => column.id === id)?.align ?? 'left';
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={`align-${alignOf(header.column.id)}`}>
                  {String(header.column.columnDef.header ?? '')}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  className={`align-${alignOf(cell.column.id)}`}
                  data-label={String(cell.column.columnDef.header ?? '')}
                >
                  {columns.find((column) => column.id === cell.column.id)?.cell(row.original)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
