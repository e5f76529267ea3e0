/**
 * The reversal confirmation (radix Dialog through Modal): what will be reversed, a
 * mandatory reason of 3-500 characters (the server's rule, checked here first so the
 * message is immediate), and the API's message when it refuses (e.g. it would overdraw).
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REASON_LENGTH, reasonSchema } from '../../../../../contracts/admin.ts';
import { firstMessage } from '../../../../../contracts/fields.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { useReverseTransaction } from '../api/reverse-transaction.ts';

/** The reason rule of POST /api/admin/reverse (contracts/admin.ts): trimmed, 3-500 characters. */
export function reasonError(reason: string): string | undefined {
  const checked = reasonSchema.safeParse(reason);
  return checked.success ? undefined : firstMessage(checked.error);
}

export interface ReverseTarget {
  streamId: string;
  /** What the admin sees, e.g. "TransferCompleted of ₹500.00 with Vikram Nair". */
  summary: string;
}

interface ReverseDialogProps {
  target: ReverseTarget | null;
  onClose: () => void;
  onReversed?: (position: string | null) => void;
}

export function ReverseDialog(props: ReverseDialogProps): ReactElement {
  const { target } = props;
  const { t } = useTranslation();
  const form = useReverseForm(props);
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => (open ? undefined : form.close())}
      title={t('audit.reverseTitle')}
      description={t('audit.reverseDescription')}
      busy={form.pending}
      busyLabel={t('audit.reversing')}
    >
      <form onSubmit={(event) => void form.submit(event)} aria-label={t('audit.reverseTitle')} noValidate>
        <p className="small">
          <span className="muted">{t('audit.reversingLabel')}</span> {target?.summary}{' '}
          <span className="mono">({target?.streamId})</span>
        </p>
        <TextAreaField
          label={t('audit.reason')}
          value={form.reason}
          maxLength={MAX_REASON_LENGTH}
          onValueChange={form.setReason}
          onBlur={form.touch}
          error={form.error}
          required
        />
        {form.refusal ? (
          <Notice tone="danger" title={t('audit.reversalRefused')}>
            {form.refusal}
          </Notice>
        ) : null}
        <div className="modal-actions">
          <Button variant="secondary" onClick={form.close}>
            {t('audit.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={form.pending}>
            {t('audit.reverse')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

interface ReverseForm {
  reason: string;
  setReason: (reason: string) => void;
  /** Shows the reason's error from now on (after a blur or a submit). */
  touch: () => void;
  error: string | undefined;
  /** The API's refusal (or the network's), shown above the buttons. */
  refusal: string | null;
  pending: boolean;
  close: () => void;
  submit: (event: FormEvent) => Promise<void>;
}

/** The reason, its check, the call with its toast, and the refusal; closing forgets them. */
function useReverseForm({ target, onClose, onReversed }: ReverseDialogProps): ReverseForm {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reverse = useReverseTransaction();
  const notify = useToast();

  function close(): void {
    setReason('');
    setTouched(false);
    setRefusal(null);
    onClose();
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setTouched(true);
    if (!target || reasonError(reason)) return;
    setRefusal(null);
    try {
      const reply = await reverse.mutateAsync({ streamId: target.streamId, reason: reason.trim() });
      if (!reply.success) {
        setRefusal(reply.message || t('audit.refused'));
        return;
      }
      // 202: filed for a second admin's approval, not done yet.
      notify({ tone: reply.status === 202 ? 'info' : 'success', message: reply.message || t('audit.reversed') });
      onReversed?.(reply.data?.position ?? null);
      close();
    } catch (caught) {
      setRefusal(caught instanceof NetworkError ? t('audit.networkError') : t('audit.reversalFailed'));
    }
  }

  return {
    reason,
    setReason,
    touch: () => setTouched(true),
    error: touched ? reasonError(reason) : undefined,
    refusal,
    pending: reverse.isPending,
    close,
    submit,
  };
}
