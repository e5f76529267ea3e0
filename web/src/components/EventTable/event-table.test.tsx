/**
 * The shared event table: the columns of the explorer (position opens the event) and of an
 * account's raw events (with idempotency key and request id), in the table and the phone cards.
 */
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RawEvent } from '../../../../contracts/admin.ts';
import { EventTable } from './EventTable.tsx';

const EVENT: RawEvent = {
  position: '42',
  txId: '7',
  streamId: 'transfer-t1',
  streamVersion: 1,
  type: 'TransferCompleted',
  data: {},
  actorId: null,
  idempotencyKey: 'key-1',
  requestId: 'req-1',
  command: 'transfer',
  recordedAt: '2026-11-22T05:00:00.000Z',
};

function headers(caption: string): string[] {
  const table = screen.getByRole('table', { name: caption });
  return within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '');
}

describe('event table', () => {
  it('shows the explorer columns and opens an event from its position', async () => {
    const onOpen = vi.fn();
    render(<EventTable events={[EVENT]} caption="Ledger events" onOpen={onOpen} />);
    expect(headers('Ledger events')).toEqual(['Position', 'Time', 'Type', 'Stream', 'Actor', 'Command']);
    const table = screen.getByRole('table', { name: 'Ledger events' });
    await userEvent.click(within(table).getByRole('button', { name: 'Open event 42' }));
    expect(onOpen).toHaveBeenCalledWith('42');
  });

  it('adds the idempotency key and request id, and lists the same fields as phone cards', () => {
    render(<EventTable events={[EVENT]} caption="Account events" withRequestKeys />);
    expect(headers('Account events')).toEqual([
      'Position',
      'Time',
      'Type',
      'Stream',
      'Actor',
      'Command',
      'Idempotency key',
      'Request id',
    ]);
    const card = within(screen.getByRole('list', { name: 'Account events' })).getByRole('listitem');
    expect(within(card).getByText('key-1')).toBeTruthy();
    expect(within(card).getByText('req-1')).toBeTruthy();
    expect(within(card).getByText('transfer-t1')).toBeTruthy();
  });
});
