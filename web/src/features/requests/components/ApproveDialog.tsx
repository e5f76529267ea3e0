/**
 * Approving a request pays the requester, so it is confirmed like a transfer: the
 * requester's account is verified as the dialog opens (the name shown is the server's, not
 * the one stored on the request), "Pay ₹X to <verified name>" with Back / Confirm, and only
 * then the transaction PIN.
 */
import i18next from 'i18next';
import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { transactionPin } from '../../../../../contracts/fields.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmPayment } from '../../../components/ui/ConfirmPayment.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { Notice } from '../../../components/ui/misc.tsx';
import { balancePaise } from '../../../lib/money-input.ts';
import { useRecipient } from '../../../lib/use-recipient.ts';
import type { MoneyRequestRecord } from '../api/get-requests.ts';
import type { DecisionOutcome } from './useDecision.ts';

interface ApproveDialogProps {
  request: MoneyRequestRecord | null;
  busy: boolean;
  onCancel: () => void;
  onApprove: (pin: string) => Promise<DecisionOutcome>;
}

/** The approval's state: the requester verified as the dialog opens, the stage, and the PIN with its reason. */
function useApproval({ request, onCancel, onApprove }: ApproveDialogProps) {
  const [stage, setStage] = useState<'confirm' | 'pin'>('confirm');
  const [pin, setPin] = useState('');
  const [error, setError] = useState('');
  const [problem, setProblem] = useState('');
  const requester = useRecipient();
  const { verify, clear } = requester;
  const requesterId = request?.sender._id;

  useEffect(() => {
    if (!requesterId) return;
    setProblem('');
    void verify(requesterId).then((outcome) => setProblem(outcome.ok ? '' : outcome.message));
  }, [requesterId, verify]);

  function close(): void {
    setPin('');
    setError('');
    setProblem('');
    setStage('confirm');
    clear();
    onCancel();
  }
  async function pay(): Promise<void> {
    const checked = transactionPin.safeParse(pin);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? i18next.t('send.pinRequired'));
      return;
    }
    const outcome = await onApprove(pin);
    if (outcome.ok) close();
    else if (outcome.pinReason) {
      // The reason under the PIN field, and the field empty for the next try.
      setPin('');
      setError(outcome.pinReason);
    }
  }
  function typePin(value: string): void {
    setPin(value);
    setError('');
  }
  const payee = requester.status === 'verified' ? requester.account : null;
  return { stage, setStage, pin, typePin, error, problem, payee, close, pay };
}

export function ApproveDialog(props: ApproveDialogProps): ReactElement {
  const { request, busy } = props;
  const { t } = useTranslation();
  const approval = useApproval(props);
  const { stage, payee, close } = approval;
  return (
    <Modal
      open={request !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={t('requests.approveTitle')}
      description={t('requests.approveDescription')}
      busy={busy}
    >
      {request && payee ? (
        <ConfirmPayment
          stage={stage}
          amountPaise={balancePaise(request.amount)}
          payee={payee}
          reference={request.reference}
          pin={approval.pin}
          pinError={approval.error}
          busy={busy}
          payLabel={t('requests.approveAndPay')}
          onPinChange={approval.typePin}
          onBack={() => (stage === 'pin' ? approval.setStage('confirm') : close())}
          onConfirm={() => approval.setStage('pin')}
          onPay={() => void approval.pay()}
        />
      ) : (
        <div className="form-stack">
          {approval.problem ? (
            <Notice tone="danger">{approval.problem}</Notice>
          ) : (
            <p className="muted" role="status">
              {t('requests.verifyingRequester')}
            </p>
          )}
          <div className="modal-actions">
            <Button variant="secondary" onClick={close}>
              {t('deposit.cancel')}
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}
