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

export function ReverseDialog({
  target,
  onClose,
  onReversed,
}: {
  target: ReverseTarget | null;
  onClose: () => void;
  onReversed?: (position: string | null) => void;
}): ReactElement {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reverse = useReverseTransaction();
  const notify = useToast();
  const error = touched ? reasonError(reason) : undefined;

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

  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={t('audit.reverseTitle')}
      description={t('audit.reverseDescription')}
      busy={reverse.isPending}
      busyLabel={t('audit.reversing')}
    >
      <form onSubmit={(event) => void submit(event)} aria-label={t('audit.reverseTitle')} noValidate>
        <p className="small">
          <span className="muted">{t('audit.reversingLabel')}</span> {target?.summary}{' '}
          <span className="mono">({target?.streamId})</span>
        </p>
        <TextAreaField
          label={t('audit.reason')}
          value={reason}
          maxLength={MAX_REASON_LENGTH}
          onValueChange={setReason}
          onBlur={() => setTouched(true)}
          error={error}
          required
        />
        {refusal ? (
          <Notice tone="danger" title={t('audit.reversalRefused')}>
            {refusal}
          </Notice>
        ) : null}
        <div className="modal-actions">
          <Button variant="secondary" onClick={close}>
            {t('audit.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={reverse.isPending}>
            {t('audit.reverse')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
