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
import { useResetCall, type ResetBodies, type SecretKind } from '../api/reset-endpoints.ts';

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
  const text = useResetText(kind);
  const [step, setStep] = useState<ResetStepNumber>(1);
  const fields = useResetFields(defaultEmail);
  const countdown = useCountdown();
  const calls = useResetCalls(kind);

  function close(next: boolean): void {
    if (!next) {
      setStep(1);
      fields.clear();
      countdown.reset();
    }
    options.onOpenChange(next);
  }
  const steps = useResetSteps({ kind, text, fields, calls, countdown, setStep, close });

  return {
    kind,
    text,
    step,
    setStep,
    values: fields.values,
    errors: fields.errors,
    set: fields.set,
    close,
    busy: calls.busy,
    resendWait: countdown.remaining,
    ...steps,
  };
}

type ResetStepNumber = 1 | 2 | 3;

function useResetText(kind: SecretKind): ResetText {
  const { t } = useTranslation();
  const keys = RESET_TEXT[kind];
  return {
    title: t(keys.title),
    validity: t(keys.validity),
    secretLabel: t(keys.secretLabel),
    confirmLabel: t(keys.confirmLabel),
    success: t(keys.success),
    failure: t(keys.failure),
  };
}

interface ResetFields {
  values: ResetValues;
  errors: FieldErrors;
  setErrors: (errors: FieldErrors) => void;
  /** An input's change handler: the value (transformed, e.g. to digits) in, its error gone. */
  set: (field: keyof ResetValues, transform?: (value: string) => string) => (value: string) => void;
  clear: () => void;
}

function useResetFields(defaultEmail: string): ResetFields {
  const [values, setValues] = useState<ResetValues>({ email: defaultEmail, otp: '', secret: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  return {
    values,
    errors,
    setErrors,
    set:
      (field, transform = (value) => value) =>
      (value) => {
        setValues((current) => ({ ...current, [field]: transform(value) }));
        setErrors((current) => ({ ...current, [field]: '' }));
      },
    clear: () => {
      setValues({ email: defaultEmail, otp: '', secret: '', confirm: '' });
      setErrors({});
    },
  };
}

function useResetCalls(kind: SecretKind) {
  const send = useResetCall(kind, 'send');
  const resend = useResetCall(kind, 'resend');
  const verify = useResetCall(kind, 'verify');
  const reset = useResetCall(kind, 'reset');
  const busy = send.isPending || resend.isPending || verify.isPending || reset.isPending;
  return { send, resend, verify, reset, busy };
}

interface ResetStepsInput {
  kind: SecretKind;
  text: ResetText;
  fields: ResetFields;
  calls: ReturnType<typeof useResetCalls>;
  countdown: ReturnType<typeof useCountdown>;
  setStep: (step: ResetStepNumber) => void;
  close: (open: boolean) => void;
}

/** Each step's submit: check the values with the shared schemas, call, and move on or say why not. */
function useResetSteps({ kind, text, fields, calls, countdown, setStep, close }: ResetStepsInput) {
  const { t } = useTranslation();
  const notify = useToast();
  const call = useResetReply(fields.setErrors);
  const { values, setErrors } = fields;

  async function requestCode(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(resetEmailSchema, { email: values.email });
    if (!checked.ok) return setErrors(checked.errors);
    await call(calls.send, { email: checked.data.email }, t('reset.sendFailed'), () => {
      notify({ tone: 'success', message: t('reset.codeSent') });
      countdown.start(RESEND_WAIT_S);
      setStep(2);
    });
  }

  async function resendCode(): Promise<void> {
    const checked = validate(resetEmailSchema, { email: values.email });
    if (!checked.ok) return setErrors(checked.errors);
    await call(calls.resend, { email: checked.data.email }, t('reset.resendFailed'), () => {
      notify({ tone: 'success', message: t('reset.codeSent') });
      countdown.start(RESEND_WAIT_S);
    });
  }

  async function verifyCode(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(verifyOtpSchema, { email: values.email, otp: values.otp });
    if (!checked.ok) return setErrors(checked.errors);
    try {
      const reply = await calls.verify.mutateAsync({ email: checked.data.email, otp: checked.data.otp });
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
    const checked = checkNewSecret(kind, values);
    if (!checked.ok) return setErrors(checked.errors);
    await call(calls.reset, checked.body, text.failure, () => {
      notify({ tone: 'success', message: text.success, durationMs: 5000 });
      close(false);
    });
  }

  return { requestCode, resendCode, verifyCode, saveSecret };
}

/**
 * A call's reply: `onOk` on success; a Google account's refusal under the e-mail field (it has
 * no password or PIN to reset here); any other refusal or failure as a toast.
 */
function useResetReply(setErrors: (errors: FieldErrors) => void) {
  const { t } = useTranslation();
  const notify = useToast();
  return async function call<Body>(
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
  };
}

type SecretCheck = { ok: true; body: ResetBodies[SecretKind]['reset'] } | { ok: false; errors: FieldErrors };

/** The new secret and its confirmation by the kind's rules, as the reset call's body. */
function checkNewSecret(kind: SecretKind, values: ResetValues): SecretCheck {
  const checked =
    kind === 'pin'
      ? validate(resetPinFormSchema, { newPin: values.secret, confirmPin: values.confirm })
      : validate(resetPasswordFormSchema, { newPassword: values.secret, confirmPassword: values.confirm });
  if (!checked.ok) {
    const secretField = kind === 'pin' ? 'newPin' : 'newPassword';
    const confirmField = kind === 'pin' ? 'confirmPin' : 'confirmPassword';
    return {
      ok: false,
      errors: { secret: checked.errors[secretField] ?? '', confirm: checked.errors[confirmField] ?? '' },
    };
  }
  const email = values.email.trim().toLowerCase();
  return {
    ok: true,
    body:
      kind === 'pin'
        ? { email, otp: values.otp, newPin: values.secret }
        : { email, otp: values.otp, newPassword: values.secret },
  };
}

export type ResetSecretForm = ReturnType<typeof useResetSecretForm>;
