/**
 * A dialog on radix-ui Dialog: focus trap, Escape and outside click close, title and
 * description announced, focus on its first field as it opens and on the result of what it did
 * as it closes (lib/focus.ts). `busy` shows the processing overlay and blocks closing.
 */
import { Dialog } from 'radix-ui';
import { useRef, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { firstField, focusArrivedResult } from '../../lib/focus.ts';
import { Icon } from './icons.tsx';
import styles from './Modal.module.css';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  busy?: boolean;
  busyLabel?: string;
  size?: 'md' | 'lg';
}

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  busy = false,
  busyLabel,
  size = 'md',
}: ModalProps): ReactElement {
  const { t } = useTranslation();
  const body = useRef<HTMLDivElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={size === 'lg' ? `${styles.modal} ${styles.lg}` : styles.modal}
          aria-describedby={description ? undefined : undefined}
          onInteractOutside={(event) => busy && event.preventDefault()}
          // The first field, not the close button radix-ui would pick; a dialog without fields keeps radix-ui's choice.
          onOpenAutoFocus={(event) => {
            const field = firstField(body.current);
            if (!field) return;
            event.preventDefault();
            field.focus();
          }}
          // After paying, focus goes to what came of it (the success message), not back to the button.
          onCloseAutoFocus={(event) => {
            if (focusArrivedResult()) event.preventDefault();
          }}
        >
          <header className={styles.header}>
            <div>
              <Dialog.Title className={styles.title}>{title}</Dialog.Title>
              {description ? (
                <Dialog.Description className={styles.description}>{description}</Dialog.Description>
              ) : (
                <Dialog.Description className="sr-only">{title}</Dialog.Description>
              )}
            </div>
            <Dialog.Close className="icon-button" aria-label={t('common.close')} disabled={busy}>
              <Icon name="x" />
            </Dialog.Close>
          </header>
          <div className={styles.body} ref={body}>
            {children}
          </div>
          {busy ? (
            <div className={styles.busy} role="status" aria-live="assertive">
              <span className="spinner" aria-hidden="true" />
              <span>{busyLabel ?? t('common.processing')}</span>
            </div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
