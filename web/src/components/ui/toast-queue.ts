/**
 * Which toasts stay on screen when a new one arrives: one toast per outcome. The same message
 * again replaces the old toast (its timer starts over) instead of stacking a twin; an outcome
 * that succeeded clears the errors and warnings it answers; at most MAX_VISIBLE_TOASTS stay.
 */
export type ToastTone = 'success' | 'error' | 'warning' | 'info';

export interface QueuedToast {
  id: number;
  tone: ToastTone;
  message: string;
}

/** More than two toasts at once read as noise, and the stack grows over the page. */
export const MAX_VISIBLE_TOASTS = 2;

export function nextToasts<Item extends QueuedToast>(current: readonly Item[], incoming: Item): Item[] {
  const stale = (item: Item): boolean =>
    item.message === incoming.message ||
    (incoming.tone === 'success' && (item.tone === 'error' || item.tone === 'warning'));
  const kept = current.filter((item) => !stale(item));
  return [...kept, incoming].slice(-MAX_VISIBLE_TOASTS);
}
