/**
 * One toast per outcome (toast-queue.ts): a repeated message replaces its twin, a success
 * clears the stale errors and warnings, and at most two are shown.
 */
import { describe, expect, it } from 'vitest';
import { MAX_VISIBLE_TOASTS, nextToasts, type QueuedToast } from './toast-queue.ts';

const error = (id: number, message = 'Transfer failed. Please try again.'): QueuedToast => ({
  id,
  tone: 'error',
  message,
});

describe('toast queue', () => {
  it('replaces a toast with the same message instead of stacking a twin', () => {
    const shown = nextToasts([error(1)], error(2));
    expect(shown).toEqual([error(2)]);
  });

  it('drops stale errors and warnings when a success arrives, keeps other news', () => {
    const current: QueuedToast[] = [error(1), { id: 2, tone: 'info', message: 'Card verification started' }];
    const success: QueuedToast = { id: 3, tone: 'success', message: 'Transfer completed successfully!' };
    expect(nextToasts(current, success)).toEqual([current[1], success]);
    const warning: QueuedToast = { id: 4, tone: 'warning', message: 'Session expired' };
    expect(nextToasts([warning], success)).toEqual([success]);
  });

  it(`shows at most ${MAX_VISIBLE_TOASTS}, the newest`, () => {
    let shown: QueuedToast[] = [];
    for (let id = 1; id <= 4; id += 1) shown = nextToasts(shown, error(id, `failure ${id}`));
    expect(shown.map((item) => item.id)).toEqual([3, 4]);
  });
});
