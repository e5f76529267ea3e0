/**
 * The reversal dialog: the reason rule (3-500 characters after trimming) is enforced before
 * any call, the trimmed reason and the stream go to POST /api/admin/reverse, and a refusal
 * shows the API's own message (e.g. it would overdraw) with the dialog left open.
 */
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { reasonError, ReverseDialog } from './ReverseDialog.tsx';

const TARGET = { streamId: 'transfer-abc123', summary: 'TransferCompleted of ₹500 with Vikram Nair' };

describe('reason rule', () => {
  it('needs 3 to 500 characters after trimming', () => {
    expect(reasonError('')).toBe('A reason of at least 3 characters is required');
    expect(reasonError('  ab  ')).toBe('A reason of at least 3 characters is required');
    expect(reasonError('abc')).toBeUndefined();
    expect(reasonError('x'.repeat(500))).toBeUndefined();
    expect(reasonError('x'.repeat(501))).toBe('Reason must be at most 500 characters');
  });
});

describe('reverse dialog', () => {
  it('refuses a short reason without calling the API, then sends the trimmed reason', async () => {
    let closed = 0;
    const calls = fakeApi({
      '/api/admin/reverse': () => ({
        body: {
          success: true,
          message: 'Transaction reversed',
          data: { streamId: TARGET.streamId, position: '9', checkpoint: '9' },
        },
      }),
    });
    renderWithApp(<ReverseDialog target={TARGET} onClose={() => (closed += 1)} />);
    expect(screen.getByText(/TransferCompleted of ₹500 with Vikram Nair/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Reason'), ' a ');
    await userEvent.click(screen.getByRole('button', { name: 'Reverse' }));
    expect(await screen.findByText('A reason of at least 3 characters is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Reason'), 'bc duplicate  ');
    await userEvent.click(screen.getByRole('button', { name: 'Reverse' }));
    expect(await screen.findByText('Transaction reversed')).toBeTruthy();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.path).toBe('/api/admin/reverse');
    expect(calls[0]?.body).toEqual({ streamId: TARGET.streamId, reason: 'a bc duplicate' });
    expect(closed).toBe(1);
  });

  it('shows the API message when the reversal is refused and stays open', async () => {
    let closed = 0;
    fakeApi({
      '/api/admin/reverse': () => ({
        status: 409,
        body: {
          success: false,
          code: 'insufficient_funds',
          message: 'Reversal would overdraw the wallet of Vikram Nair',
        },
      }),
    });
    renderWithApp(<ReverseDialog target={TARGET} onClose={() => (closed += 1)} />);
    await userEvent.type(screen.getByLabelText('Reason'), 'sent twice by mistake');
    await userEvent.click(screen.getByRole('button', { name: 'Reverse' }));
    expect(await screen.findByText('Reversal would overdraw the wallet of Vikram Nair')).toBeTruthy();
    expect(screen.getByText('Reversal refused')).toBeTruthy();
    expect(closed).toBe(0);
  });
});
