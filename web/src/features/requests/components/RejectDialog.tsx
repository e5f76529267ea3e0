/**
 * Rejecting a request cannot be taken back (the requester would have to ask again), and the
 * Reject button sits beside Approve: one stray tap must not answer it. The dialog names the
 * request - "Reject ₹150.00 asked by Meera Iyer?" - and Keep it is the focused, safe choice.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRupees } from '../../../lib/format.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import type { MoneyRequestRecord } from '../api/get-requests.ts';

export function RejectDialog({
  request,
  busy,
  onCancel,
  onReject,
}: {
  request: MoneyRequestRecord | null;
  busy: boolean;
  onCancel: () => void;
  onReject: (request: MoneyRequestRecord) => void;
}): ReactElement {
  const { t } = useTranslation();
  const name = request ? `${request.sender.firstName} ${request.sender.lastName}`.trim() : '';
  return (
    <Modal
      open={request !== null}
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title={t('requests.rejectTitle')}
      description={t('requests.rejectDescription')}
      busy={busy}
    >
      {request ? (
        <div className="form-stack">
          <p data-testid="reject-question">
            {t('requests.rejectQuestion', { amount: formatRupees(request.amount), name })}
          </p>
          <div className="modal-actions">
            <Button variant="secondary" onClick={onCancel} autoFocus>
              {t('requests.keepRequest')}
            </Button>
            <Button variant="danger" onClick={() => onReject(request)} disabled={busy}>
              {t('requests.reject')}
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
