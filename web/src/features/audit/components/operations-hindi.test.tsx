/**
 * The Operations page in Hindi: its title, the approvals card (Approve / Withdraw named
 * after the action), the trial balance and the audit trail; the action names and targets the
 * API sends stay as they are.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n/i18n.ts';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { OperationsPage } from './OperationsPage.tsx';

function approval(id: string, requestedBy: string) {
  return {
    id,
    action: 'settle',
    target: `deposit-${id}`,
    amount: 25000,
    reason: null,
    requestedBy,
    requestedByName: 'Ravi Admin',
    requestedAt: '2026-11-22T05:00:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedByName: null,
    decidedAt: null,
    decisionReason: null,
  };
}

describe('the Operations page in Hindi', () => {
  it('shows approvals, the trial balance and the audit trail in Hindi', async () => {
    fakeApi({
      '/api/admin/approvals': () => ({
        body: { success: true, message: 'ok', data: [approval('a1', 'other-admin'), approval('a2', 'me')] },
      }),
      '/api/admin/trial-balance': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { byKind: [], fundingSources: [], total: 0, balanced: true, lastVerify: null },
        },
      }),
      '/api/admin/projections': () => ({
        body: {
          success: true,
          message: 'ok',
          data: { projections: [], heldBackEvents: 0, heldBackSeconds: null, holder: null },
        },
      }),
      '/api/admin/audit-trail': () => ({
        body: { success: true, message: 'ok', data: { items: [], nextBefore: null } },
      }),
    });
    act(() => setLanguage('hi'));
    renderWithApp(<OperationsPage currentUserId="me" />, { path: '/admin/operations' });

    expect(screen.getByRole('heading', { name: 'ऑपरेशंस' })).toBeTruthy();
    const approvals = await screen.findByRole('table', { name: 'दूसरे एडमिन की प्रतीक्षा में' });
    expect(within(approvals).getByRole('button', { name: 'deposit-a1 पर निपटान मंज़ूर करें' })).toBeTruthy();
    expect(within(approvals).getByText('दूसरे एडमिन की ज़रूरत है')).toBeTruthy();
    expect(within(approvals).getByRole('button', { name: 'deposit-a2 पर निपटान अस्वीकार करें' }).textContent).toBe(
      'वापस लें',
    );
    expect(await screen.findByText('संतुलित')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'जाँच चलाएँ' })).toBeTruthy();
    expect(await screen.findByText('अभी तक एडमिन की कोई कार्रवाई नहीं')).toBeTruthy();
  });
});
