/**
 * Ledger events as a table (cards on phones): position, time, type, stream, actor and
 * command, and with `withRequestKeys` the idempotency key and request id the command
 * carried. With `onOpen` the position is a button that opens the event.
 */
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { RawEvent } from '../../../../contracts/admin.ts';
import { formatDateTime, shortId } from '../../lib/format.ts';
import { ResponsiveTable } from '../ResponsiveTable/ResponsiveTable.tsx';
import { Button } from '../ui/Button.tsx';
import type { Column } from '../ui/DataTable.tsx';

type EventRow = RawEvent & { _id: string };

function columnsOf(onOpen: ((position: string) => void) | undefined, withRequestKeys: boolean): Column<EventRow>[] {
  const position: Column<EventRow> = onOpen
    ? {
        id: 'position',
        header: i18next.t('events.position'),
        cell: (row) => (
          <Button
            size="sm"
            variant="link"
            onClick={() => onOpen(row.position)}
            aria-label={i18next.t('events.open', { position: row.position })}
          >
            {row.position}
          </Button>
        ),
      }
    : {
        id: 'position',
        header: i18next.t('events.position'),
        cell: (row) => <span className="mono">{row.position}</span>,
      };
  const common: Column<EventRow>[] = [
    position,
    { id: 'time', header: i18next.t('events.time'), cell: (row) => formatDateTime(row.recordedAt) },
    { id: 'type', header: i18next.t('events.type'), cell: (row) => row.type },
    {
      id: 'stream',
      header: i18next.t('events.stream'),
      cell: (row) => <span className="mono-wrap">{row.streamId}</span>,
    },
    {
      id: 'actor',
      header: i18next.t('events.actor'),
      cell: (row) => (
        <span className="mono-wrap" title={row.actorId ?? ''}>
          {row.actorId ? shortId(row.actorId) : '-'}
        </span>
      ),
    },
    { id: 'command', header: i18next.t('events.command'), cell: (row) => row.command ?? '-' },
  ];
  if (!withRequestKeys) return common;
  return [
    ...common,
    {
      id: 'idempotency',
      header: i18next.t('events.idempotencyKey'),
      cell: (row) => <span className="mono-wrap">{row.idempotencyKey ?? '-'}</span>,
    },
    {
      id: 'request',
      header: i18next.t('events.requestId'),
      cell: (row) => <span className="mono-wrap">{row.requestId ?? '-'}</span>,
    },
  ];
}

export function EventTable({
  events,
  caption,
  onOpen,
  withRequestKeys = false,
}: {
  events: readonly RawEvent[];
  caption: string;
  onOpen?: (position: string) => void;
  withRequestKeys?: boolean;
}): ReactElement {
  // The headers are read in render, so a language switch redraws them.
  useTranslation();
  const rows: EventRow[] = events.map((event) => ({ ...event, _id: event.position }));
  return <ResponsiveTable rows={rows} columns={columnsOf(onOpen, withRequestKeys)} caption={caption} />;
}
