/**
 * The Send Request form's state and submission (spec sections 2, 5, 8): the values, the
 * recipient's verification (not yourself; Verify, Verifying, Verified), validation with the
 * shared request schema, the mutation with one Idempotency-Key per submission, the toasts,
 * and the ledger reads refreshed after a request. The view is SendRequestDialog.tsx.
 */
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useState, type FormEvent } from 'react';
import { SELF_REQUEST_MESSAGE, sendRequestSchema } from '../../../../../contracts/transactions.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { useSubmissionKey } from '../../../lib/idempotency.ts';
import { rupeesFromPaise } from '../../../lib/money-input.ts';
import { refreshAfterCommand } from '../../../lib/query-client.ts';
import { successWords } from '../../../lib/server-words.ts';
import { useRecipient } from '../../../lib/use-recipient.ts';
import { useSendRequest } from '../api/send-request.ts';

const EMPTY = { receiver: '', amount: '', reference: '' };
export type SendRequestValues = typeof EMPTY;

type RequestBody = { receiver: string; amount: number; reference: string };

/** The form checked as Send would send it: the shared schema, then the two rules that need the dialog's state. */
function checkRequest(
  values: SendRequestValues,
  userId: string,
  verified: boolean,
): { ok: true; body: RequestBody } | { ok: false; errors: FieldErrors } {
  const checked = validate(sendRequestSchema, values);
  const found: FieldErrors = checked.ok ? {} : { ...checked.errors };
  if (!found.receiver && values.receiver.trim() === userId) found.receiver = SELF_REQUEST_MESSAGE;
  if (!found.receiver && !verified) found.receiver = i18next.t('send.verifyFirst');
  if (!checked.ok || Object.values(found).some(Boolean)) return { ok: false, errors: found };
  const { receiver, amount, reference } = checked.data;
  return { ok: true, body: { receiver, amount: rupeesFromPaise(amount), reference } };
}

/**
 * The send-request command, one Idempotency-Key per submission; `onSent` runs once the
 * server has recorded the request, before the reads refresh.
 */
function useRequestCommand() {
  const send = useSendRequest();
  const keys = useSubmissionKey();
  const notify = useToast();
  const client = useQueryClient();

  async function sendRequest(body: RequestBody, onSent: () => void): Promise<void> {
    try {
      const reply = await send.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
      keys.complete();
      if (!reply.success) {
        notify({ tone: 'error', message: reply.message || i18next.t('requests.sendFailed'), durationMs: 5000 });
        return;
      }
      const message = successWords(reply.message, i18next.t('requests.sent'));
      notify({ tone: 'success', message, durationMs: 3000, result: true });
      onSent();
      await refreshAfterCommand(client);
    } catch (error) {
      const message = error instanceof NetworkError ? 'requests.sendNetworkFailed' : 'requests.sendFailed';
      notify({ tone: 'error', message: i18next.t(message), durationMs: 5000 });
    }
  }

  return { sendRequest, sending: send.isPending, forget: keys.complete, notify };
}

export function useSendRequestForm(options: {
  userId: string;
  onOpenChange: (open: boolean) => void;
  /** After a request is sent and the dialog closed (the page shows it in the Sent tab). */
  onSent?: (() => void) | undefined;
}) {
  const { userId } = options;
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const recipient = useRecipient();
  const command = useRequestCommand();

  function close(next: boolean): void {
    if (!next) {
      setValues(EMPTY);
      setErrors({});
      recipient.clear();
      command.forget();
    }
    options.onOpenChange(next);
  }
  const set = (field: keyof SendRequestValues) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (field === 'receiver') recipient.clear();
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  };
  function changeAccount(): void {
    recipient.clear();
    setValues((current) => ({ ...current, receiver: '' }));
  }
  const refuseReceiver = (message: string) => setErrors((current) => ({ ...current, receiver: message }));

  async function verify(): Promise<void> {
    const receiver = values.receiver.trim();
    const problem = !receiver ? i18next.t('send.accountRequired') : receiver === userId ? SELF_REQUEST_MESSAGE : null;
    if (problem) return refuseReceiver(problem);
    const outcome = await recipient.verify(receiver);
    if (outcome.ok) {
      command.notify({ tone: 'success', message: i18next.t('send.accountVerified'), durationMs: 3000 });
      refuseReceiver('');
    } else {
      refuseReceiver(outcome.network ? i18next.t('requests.verifyError') : outcome.message);
    }
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = checkRequest(values, userId, recipient.status === 'verified');
    // The reasons are under their fields; a toast would only repeat them.
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    await command.sendRequest(checked.body, () => {
      close(false);
      options.onSent?.();
    });
  }

  const verified = recipient.status === 'verified' && recipient.account ? recipient.account : null;
  return {
    values,
    errors,
    set,
    close,
    verify,
    submit,
    changeAccount,
    verified,
    verifying: recipient.status === 'verifying',
    canVerify: recipient.status === 'unverified',
    sending: command.sending,
  };
}

export type SendRequestForm = ReturnType<typeof useSendRequestForm>;
