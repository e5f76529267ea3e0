/**
 * The audit trail names every admin action in the reader's language. Regression: an ID
 * number's reveal showed as its code, `reveal_identification`. Every code of ADMIN_ACTIONS
 * is listed, so an action added without its English and Hindi names fails here.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN_ACTIONS, type AdminActionRecord } from '../../../../../contracts/admin.ts';
import { setLanguage } from '../../../i18n/i18n.ts';
import { fakeApi, renderWithApp } from '../../../test/harness.tsx';
import { AuditTrailCard } from './AuditTrailCard.tsx';

function entry(action: AdminActionRecord['action'], index: number): AdminActionRecord {
  return {
    id: `action-${index}`,
    actorId: 'admin-1',
    actorName: 'Ravi Admin',
    action,
    target: `target-${action}`,
    reason: null,
    details: {},
    recordedAt: '2026-11-22T05:00:00.000Z',
  };
}

/** The text under `header` in each row of the desktop table, in the order of ADMIN_ACTIONS. */
async function shownActionNames(header: string): Promise<string[]> {
  fakeApi({
    '/api/admin/audit-trail': () => ({
      body: { success: true, message: 'ok', data: { items: ADMIN_ACTIONS.map(entry), nextBefore: null } },
    }),
  });
  renderWithApp(<AuditTrailCard />, { path: '/admin/operations' });
  const table = await screen.findByRole('table');
  const column = within(table)
    .getAllByRole('columnheader')
    .findIndex((cell) => cell.textContent === header);
  expect(column, header).toBeGreaterThanOrEqual(0);
  const rows = within(table).getAllByRole('row').slice(1);
  return rows.map((row) => within(row).getAllByRole('cell')[column]?.textContent ?? '');
}

describe('the audit trail', () => {
  it("names each action in English, the code only in the name's tooltip", async () => {
    const names = await shownActionNames('Action');
    expect(names).toHaveLength(ADMIN_ACTIONS.length);
    expect(names[ADMIN_ACTIONS.indexOf('reveal_identification')]).toBe('Revealed an ID number');
    for (const [index, action] of ADMIN_ACTIONS.entries()) {
      expect(names[index], action).not.toBe(action);
      expect(names[index], action).not.toMatch(/actionNames|_/);
    }
    expect(screen.getAllByTitle('reveal_identification')[0]?.textContent).toBe('Revealed an ID number');
  });

  it('names each action in Hindi', async () => {
    act(() => setLanguage('hi'));
    const names = await shownActionNames('कार्रवाई');
    expect(names[ADMIN_ACTIONS.indexOf('reveal_identification')]).toBe('पूरा ID नंबर देखा');
    for (const [index, action] of ADMIN_ACTIONS.entries()) {
      // Devanagari, not the English fallback i18next shows for a missing Hindi text.
      expect(names[index], action).toMatch(/[\u0900-\u097F]/);
    }
  });
});
