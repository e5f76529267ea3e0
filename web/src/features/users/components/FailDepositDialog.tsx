/**
 * Asks why a pending deposit is being marked failed (the money never arrived): a reason of
 * 3-500 characters, the server's rule (contracts/admin.ts), checked here first.
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_REASON_LENGTH, reasonSchema } from '../../../../../contracts/admin.ts';
import { firstMessage } from '../../../../../contracts/fields.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextAreaField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { formatRupees } from '../../../lib/format.ts';
import type { PendingDeposit } from '../api/get-pending-deposits.ts';

function reasonError(reason: string): string | undefined {
  const checked = reasonSchema.safeParse(reason);
  return checked.success ? undefined : firstMessage(checked.error);
}

export function FailDepositDialog({
  deposit,
  busy,
  onClose,
  onFail,
}: {
  deposit: PendingDeposit | null;
  busy: boolean;
  onClose: () => void;
  onFail: (reason: string) => Promise<boolean>;
}): ReactElement {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const error = touched ? reasonError(reason) : undefined;

  function close(): void {
    setReason('');
    setTouched(false);
    onClose();
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setTouched(true);
    if (reasonError(reason)) return;
    if (await onFail(reason.trim())) {
      setReason('');
      setTouched(false);
    }
  }

  return (
    <Modal
      open={deposit !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={t('users.failTitle')}
      description={
        deposit
          ? t('users.failDescription', {
              amount: formatRupees(deposit.amount),
              name: deposit.ownerName ?? deposit.walletId,
            })
          : undefined
      }
      busy={busy}
    >
      <form className="form-stack" onSubmit={(event) => void submit(event)} noValidate>
        <TextAreaField
          label={t('users.reason')}
          maxLength={MAX_REASON_LENGTH}
          value={reason}
          onValueChange={setReason}
          error={error}
        />
        <div className="modal-actions">
          <Button variant="secondary" type="button" onClick={close}>
            {t('users.cancel')}
          </Button>
          <Button variant="danger" type="submit" disabled={busy}>
            {t('users.markFailed')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
