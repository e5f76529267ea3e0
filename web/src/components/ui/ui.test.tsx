/**
 * Shared UI: Alt+T focuses the toast viewport; the loading view rotates its word.
 */
import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LoadingView } from './LoadingView.tsx';
import { Toaster, useToast } from './Toaster.tsx';

function Notifier(): null {
  const notify = useToast();
  useEffect(() => notify({ tone: 'success', message: 'Saved' }), [notify]);
  return null;
}

describe('toasts', () => {
  it('shows the message and Alt+T moves focus to the notifications region', async () => {
    render(
      <Toaster>
        <Notifier />
        <button type="button">elsewhere</button>
      </Toaster>,
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
    screen.getByRole('button', { name: 'elsewhere' }).focus();
    const region = screen.getByRole('region', { name: 'Notifications (Alt+T)' });
    expect(region.contains(document.activeElement)).toBe(false);
    await userEvent.keyboard('{Alt>}t{/Alt}');
    expect(region.contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.className).toContain('toast-viewport');
  });
});

describe('loading view', () => {
  it("reads 'loading your' and rotates dashboard, requests, transactions within 3 s", () => {
    // The rotation's clock is advanced, not waited for.
    vi.useFakeTimers();
    try {
      render(<LoadingView />);
      expect(screen.getByText('dashboard')).toBeTruthy();
      act(() => vi.advanceTimersByTime(1050));
      expect(screen.getByText('requests')).toBeTruthy();
      act(() => vi.advanceTimersByTime(1000));
      expect(screen.getByText('transactions')).toBeTruthy();
      expect(screen.getByRole('status').textContent).toMatch(/^loading your/);
    } finally {
      vi.useRealTimers();
    }
  });
});
