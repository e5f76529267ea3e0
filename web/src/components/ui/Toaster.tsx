/**
 * Toasts on radix-ui Toast, Alt+T focuses the viewport (spec sections 2 and 9): one per outcome
 * (toast-queue.ts), bottom-right on wide screens and below the top bar on phones, so they never
 * cover the header's buttons or a bottom sheet's actions. Durations come from the caller; the
 * default is the spec's 4000 ms.
 */
import { Toast } from 'radix-ui';
import { createContext, useCallback, useContext, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RESULT_ATTRIBUTE } from '../../lib/focus.ts';
import { nextToasts, type ToastTone } from './toast-queue.ts';
import styles from './Toaster.module.css';

export type { ToastTone };

export interface ToastInput {
  tone: ToastTone;
  message: string;
  durationMs?: number;
  /**
   * How the action of a dialog that is closing ended ("Transfer completed successfully!"):
   * the dialog hands focus to it instead of to the button that opened it (Modal, lib/focus.ts).
   */
  result?: boolean;
}

interface ToastItem extends ToastInput {
  id: number;
}

export const DEFAULT_TOAST_MS = 4000;

type Notify = (input: ToastInput) => void;

const ToastContext = createContext<Notify>(() => undefined);

export function useToast(): Notify {
  return useContext(ToastContext);
}

let nextId = 1;

export function Toaster({ children }: { children: ReactNode }): ReactElement {
  const { t } = useTranslation();
  const [items, setItems] = useState<ToastItem[]>([]);
  const notify = useCallback<Notify>((input) => {
    const id = nextId++;
    setItems((current) => nextToasts(current, { ...input, id }));
  }, []);
  const remove = useCallback((id: number) => setItems((current) => current.filter((item) => item.id !== id)), []);
  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      <Toast.Provider swipeDirection="right" duration={DEFAULT_TOAST_MS}>
        {children}
        {items.map((item) => (
          <Toast.Root
            key={item.id}
            className={`${styles.toast} ${styles[item.tone] ?? ''}`}
            duration={item.durationMs ?? DEFAULT_TOAST_MS}
            type={item.tone === 'error' || item.tone === 'warning' ? 'foreground' : 'background'}
            onOpenChange={(open) => (open ? undefined : remove(item.id))}
            data-testid="toast"
            {...(item.result ? { [RESULT_ATTRIBUTE]: 'arrived' } : {})}
          >
            <span className={styles.mark} aria-hidden="true" />
            <Toast.Description className={styles.message}>{item.message}</Toast.Description>
            <Toast.Close className={styles.close} aria-label={t('toasts.dismiss')}>
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <Toast.Viewport
          className={`toast-viewport ${styles.viewport}`}
          hotkey={['altKey', 'KeyT']}
          label={t('toasts.region')}
        />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}
