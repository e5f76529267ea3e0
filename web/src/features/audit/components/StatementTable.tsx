/**
 * An account's statement lines (time, position, event, counterparty, signed amount,
 * running balance) with Reverse on each reversible row not yet reversed, and "Load more".
 */
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { REVERSED_BY } from '../../../../../contracts/admin.ts';
import { ResponsiveTable } from '../../../components/ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import type { Column } from '../../../components/ui/DataTable.tsx';
import { Badge, EmptyState } from '../../../components/ui/misc.tsx';
import { formatBalance, formatDateTime, formatRupees } from '../../../lib/format.ts';
import type { useStatement } from '../api/get-statement.ts';
import type { StatementLine } from '../api/types.ts';
import { LoadMore, SignedAmount } from './LoadMore.tsx';
import type { ReverseTarget } from './ReverseDialog.tsx';

/** Event types an admin can reverse (a completed transfer, a settled deposit, a paid request), and their reversals. */
export const REVERSIBLE_TYPES: ReadonlySet<string> = new Set(Object.keys(REVERSED_BY));
export const REVERSAL_TYPES: ReadonlySet<string> = new Set(Object.values(REVERSED_BY));

type StatementRow = StatementLine & { _id: string };

function statementColumns(
  lines: readonly StatementLine[],
  onReverse: (target: ReverseTarget) => void,
  t: TFunction,
): Column<StatementRow>[] {
  const reversedStreams = new Set(
    lines.filter((line) => REVERSAL_TYPES.has(line.eventType)).map((line) => line.streamId),
  );
  const reversible = (line: StatementLine) =>
    REVERSIBLE_TYPES.has(line.eventType) && !reversedStreams.has(line.streamId);
  return [
    { id: 'time', header: t('audit.time'), cell: (row) => formatDateTime(row.recordedAt) },
    { id: 'position', header: t('audit.position'), cell: (row) => <span className="mono">{row.position}</span> },
    {
      id: 'type',
      header: t('audit.event'),
      cell: (row) => <Badge tone={REVERSAL_TYPES.has(row.eventType) ? 'warning' : 'neutral'}>{row.eventType}</Badge>,
    },
    {
      id: 'counterparty',
      header: t('audit.counterparty'),
      cell: (row) => row.counterpartyName ?? row.counterpartyId ?? '-',
    },
    {
      id: 'amount',
      header: t('audit.amount'),
      align: 'right',
      cell: (row) => <SignedAmount rupees={row.amount} format={formatRupees} />,
    },
    { id: 'balance', header: t('audit.balance'), align: 'right', cell: (row) => formatBalance(row.balanceAfter) },
    {
      id: 'actions',
      header: t('audit.actions'),
      cell: (row) =>
        reversible(row) ? (
          <Button
            size="sm"
            variant="danger"
            aria-label={t('audit.reverseLabel', { type: row.eventType, position: row.position })}
            onClick={() =>
              onReverse({
                streamId: row.streamId,
                summary: row.counterpartyName
                  ? t('audit.reverseSummaryWith', {
                      type: row.eventType,
                      amount: formatRupees(Math.abs(row.amount)),
                      name: row.counterpartyName,
                    })
                  : t('audit.reverseSummary', { type: row.eventType, amount: formatRupees(Math.abs(row.amount)) }),
              })
            }
          >
            {t('audit.reverse')}
          </Button>
        ) : (
          <span className="muted">-</span>
        ),
    },
  ];
}

export function StatementTable({
  statement,
  lines,
  onReverse,
}: {
  statement: ReturnType<typeof useStatement>;
  lines: readonly StatementLine[];
  onReverse: (target: ReverseTarget) => void;
}): ReactElement {
  const { t } = useTranslation();
  if (statement.isPending) return <p className="muted pad">{t('audit.loadingStatement')}</p>;
  if (statement.isError) return <EmptyState title={t('audit.statementFailed')} text={statement.error.message} />;
  if (lines.length === 0) return <EmptyState title={t('audit.noPostings')} icon="transactions" />;
  const rows: StatementRow[] = lines.map((line) => ({ ...line, _id: line.sequence }));
  return (
    <>
      <ResponsiveTable rows={rows} columns={statementColumns(lines, onReverse, t)} caption={t('audit.statement')} />
      <LoadMore
        hasMore={statement.hasNextPage}
        loading={statement.isFetchingNextPage}
        onLoad={() => void statement.fetchNextPage()}
      />
    </>
  );
}
