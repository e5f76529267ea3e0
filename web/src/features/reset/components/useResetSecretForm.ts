/**
 * The reset dialog's state and calls (spec sections 4, 5, 8): the step (e-mail -> 6-digit
 * code -> new secret), the values, validation with the shared reset schemas, the four
 * endpoint calls with their toasts, and the 60 s resend wait. Closing resets everything.
 * The view is ResetSecretDialog.tsx.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  resetEmailSchema,
  resetPasswordFormSchema,
  resetPinFormSchema,
  verifyOtpSchema,
} from '../../../../../contracts/users.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import type { ApiReply } from '../../../lib/api-client.ts';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useResetCall, type SecretKind } from '../api/reset-endpoints.ts';

export const RESEND_WAIT_S = 60;

/** Translation keys of what differs between the two resets. */
export const RESET_TEXT = {
  password: {
    title: 'reset.passwordTitle',
    validity: 'reset.passwordValidity',
    secretLabel: 'reset.newPassword',
    confirmLabel: 'reset.confirmNewPassword',
    success: 'reset.passwordSuccess',
    failure: 'reset.passwordFailure',
  },
  pin: {
    title: 'reset.pinTitle',
    validity: 'reset.pinValidity',
    secretLabel: 'reset.newPin',
    confirmLabel: 'reset.confirmNewPin',
    success: 'reset.pinSuccess',
    failure: 'reset.pinFailure',
  },
} as const;

type ResetText = { [Key in keyof (typeof RESET_TEXT)['pin']]: string };

export type ResetValues = { email: string; otp: string; secret: string; confirm: string };

export function useResetSecretForm(options: {
  kind: SecretKind;
  defaultEmail: string;
  onOpenChange: (open: boolean) => void;
}) {
  const { kind, defaultEmail } = options;
  const { t } = useTranslation();
  const keys = RESET_TEXT[kind];
  const text: ResetText = {
    title: t(keys.title),
    validity: t(keys.validity),
    secretLabel: t(keys.secretLabel),
    confirmLabel: t(keys.confirmLabel),
    success: t(keys.success),
    failure: t(keys.failure),
  };
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [values, setValues] = useState<ResetValues>({ email: defaultEmail, otp: '', secret: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const countdown = useCountdown();
  const notify = useToast();
  const send = useResetCall(kind, 'send');
  const resend = useResetCall(kind, 'resend');
  const verify = useResetCall(kind, 'verify');
  const reset = useResetCall(kind, 'reset');
  const busy = send.isPending || resend.isPending || verify.isPending || reset.isPending;

  function clear(): void {
    setStep(1);
    setValues({ email: defaultEmail, otp: '', secret: '', confirm: '' });
    setErrors({});
    countdown.reset();
  }
  function close(next: boolean): void {
    if (!next) clear();
    options.onOpenChange(next);
  }
  const set =
    (field: keyof ResetValues, transform: (value: string) => string = (value) => value) =>
    (value: string) => {
      setValues((current) => ({ ...current, [field]: transform(value) }));
      setErrors((current) => ({ ...current, [field]: '' }));
    };

  async function call<Body>(
    mutation: { mutateAsync: (body: Body) => Promise<ApiReply<unknown>> },
    body: Body,
    fallback: string,
    onOk: () => void,
  ): Promise<void> {
    try {
      const reply = await mutation.mutateAsync(body);
      if (reply.success) return onOk();
      if (reply.code === 'OAUTH_USER') {
        setErrors({ email: t('reset.useGoogle') });
        return;
      }
      notify({ tone: 'error', message: reply.message || fallback });
    } catch {
      notify({ tone: 'error', message: fallback });
    }
  }

  async function requestCode(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(resetEmailSchema, { email: values.email });
    if (!checked.ok) return setErrors(checked.errors);
    await call(send, { email: checked.data.email }, t('reset.sendFailed'), () => {
      notify({ tone: 'success', message: t('reset.codeSent') });
      countdown.start(RESEND_WAIT_S);
      setStep(2);
    });
  }

  async function resendCode(): Promise<void> {
    const checked = validate(resetEmailSchema, { email: values.email });
    if (!checked.ok) return setErrors(checked.errors);
    await call(resend, { email: checked.data.email }, t('reset.resendFailed'), () => {
      notify({ tone: 'success', message: t('reset.codeSent') });
      countdown.start(RESEND_WAIT_S);
    });
  }

  async function verifyCode(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(verifyOtpSchema, { email: values.email, otp: values.otp });
    if (!checked.ok) return setErrors(checked.errors);
    try {
      const reply = await verify.mutateAsync({ email: checked.data.email, otp: checked.data.otp });
      if (reply.success) {
        notify({ tone: 'success', message: t('reset.codeVerified') });
        setStep(3);
      } else {
        setErrors({ otp: reply.message || t('reset.invalidCode') });
        notify({ tone: 'error', message: reply.message || t('reset.invalidCode') });
      }
    } catch {
      notify({ tone: 'error', message: t('reset.verifyFailed') });
    }
  }

  async function saveSecret(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked =
      kind === 'pin'
        ? validate(resetPinFormSchema, { newPin: values.secret, confirmPin: values.confirm })
        : validate(resetPasswordFormSchema, { newPassword: values.secret, confirmPassword: values.confirm });
    if (!checked.ok) {
      const secretField = kind === 'pin' ? 'newPin' : 'newPassword';
      const confirmField = kind === 'pin' ? 'confirmPin' : 'confirmPassword';
      setErrors({ secret: checked.errors[secretField] ?? '', confirm: checked.errors[confirmField] ?? '' });
      return;
    }
    const email = values.email.trim().toLowerCase();
    const body =
      kind === 'pin'
        ? { email, otp: values.otp, newPin: values.secret }
        : { email, otp: values.otp, newPassword: values.secret };
    await call(reset, body, text.failure, () => {
      notify({ tone: 'success', message: text.success, durationMs: 5000 });
      close(false);
    });
  }

  return {
    kind,
    text,
    step,
    setStep,
    values,
    errors,
    set,
    close,
    busy,
    resendWait: countdown.remaining,
    requestCode,
    resendCode,
    verifyCode,
    saveSecret,
  };
}

export type ResetSecretForm = ReturnType<typeof useResetSecretForm>;
