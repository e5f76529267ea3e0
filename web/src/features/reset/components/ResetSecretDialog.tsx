/**
 * Reset Password and Reset Transaction PIN (spec sections 4, 5, 8): three steps (e-mail ->
 * 6-digit code -> new secret), Back one step, Cancel/close resets everything, resend
 * disabled for 60 s ('Resend in Ns'). Validation with the shared reset schemas.
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import {
  resetEmailSchema,
  resetPasswordFormSchema,
  resetPinFormSchema,
  verifyOtpSchema,
} from '../../../../../contracts/users.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { digitsOnly, validate, type FieldErrors } from '../../../lib/forms.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useResetCall, type SecretKind } from '../api/reset-endpoints.ts';

export const RESEND_WAIT_S = 60;

const TEXT = {
  password: {
    title: 'Reset Password',
    validity: '15 minutes',
    secretLabel: 'New password',
    confirmLabel: 'Confirm new password',
    success: 'Password reset successfully! You can now login with your new password.',
    failure: 'Failed to reset password. Please try again.',
  },
  pin: {
    title: 'Reset Transaction PIN',
    validity: '10 minutes',
    secretLabel: 'New PIN',
    confirmLabel: 'Confirm new PIN',
    success: 'Transaction PIN updated successfully!',
    failure: 'Failed to update PIN. Please try again.',
  },
} as const;

export interface ResetSecretDialogProps {
  kind: SecretKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultEmail?: string;
}

export function ResetSecretDialog({
  kind,
  open,
  onOpenChange,
  defaultEmail = '',
}: ResetSecretDialogProps): ReactElement {
  const text = TEXT[kind];
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [values, setValues] = useState({ email: defaultEmail, otp: '', secret: '', confirm: '' });
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
    onOpenChange(next);
  }
  const set =
    (field: keyof typeof values, transform: (value: string) => string = (value) => value) =>
    (value: string) => {
      setValues((current) => ({ ...current, [field]: transform(value) }));
      setErrors((current) => ({ ...current, [field]: '' }));
    };

  async function call(
    mutation: typeof send,
    body: Record<string, string>,
    fallback: string,
    onOk: () => void,
    errorField?: string,
  ): Promise<void> {
    try {
      const reply = await mutation.mutateAsync(body);
      if (reply.success) return onOk();
      if (reply.code === 'OAUTH_USER') {
        setErrors({ email: 'Please use Google to sign in to your account' });
        return;
      }
      const message = reply.message || fallback;
      if (errorField) setErrors({ [errorField]: message });
      notify({ tone: 'error', message });
    } catch {
      notify({ tone: 'error', message: fallback });
    }
  }

  async function requestCode(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(resetEmailSchema, { email: values.email });
    if (!checked.ok) return setErrors(checked.errors);
    await call(send, { email: checked.data.email }, 'Failed to send OTP', () => {
      notify({ tone: 'success', message: 'OTP sent to your email!' });
      countdown.start(RESEND_WAIT_S);
      setStep(2);
    });
  }

  async function resendCode(): Promise<void> {
    const checked = validate(resetEmailSchema, { email: values.email });
    if (!checked.ok) return setErrors(checked.errors);
    await call(resend, { email: checked.data.email }, 'Failed to resend OTP', () => {
      notify({ tone: 'success', message: 'OTP sent to your email!' });
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
        notify({ tone: 'success', message: 'OTP verified successfully!' });
        setStep(3);
      } else {
        setErrors({ otp: reply.message || 'Invalid OTP' });
        notify({ tone: 'error', message: reply.message || 'Invalid OTP' });
      }
    } catch {
      notify({ tone: 'error', message: 'OTP verification failed' });
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
      notify({ tone: 'warning', message: 'Please fix the errors before proceeding' });
      return;
    }
    const body: Record<string, string> =
      kind === 'pin'
        ? { email: values.email.trim().toLowerCase(), otp: values.otp, newPin: values.secret }
        : { email: values.email.trim().toLowerCase(), otp: values.otp, newPassword: values.secret };
    await call(reset, body, text.failure, () => {
      notify({ tone: 'success', message: text.success, durationMs: 5000 });
      close(false);
    });
  }

  const secretInput = kind === 'pin' ? (value: string) => digitsOnly(value, 6) : (value: string) => value;
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={text.title}
      description={`Step ${step} of 3`}
      busy={busy}
      busyLabel="Please wait..."
    >
      <ol className="stepper" aria-label="Progress">
        {['Email', 'Verify code', kind === 'pin' ? 'New PIN' : 'New password'].map((label, index) => (
          <li
            key={label}
            className={index + 1 === step ? 'current' : index + 1 < step ? 'done' : ''}
            aria-current={index + 1 === step ? 'step' : undefined}
          >
            <span>{index + 1}</span> {label}
          </li>
        ))}
      </ol>
      {step === 1 ? (
        <form onSubmit={requestCode} noValidate className="form-stack">
          <p className="muted">We will e-mail you a 6-digit code. It is valid for {text.validity}.</p>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={values.email}
            onValueChange={set('email')}
            error={errors.email}
          />
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Send code
            </Button>
          </div>
        </form>
      ) : null}
      {step === 2 ? (
        <form onSubmit={verifyCode} noValidate className="form-stack">
          <p className="muted">
            Enter the 6-digit code sent to <strong>{values.email}</strong>. It is valid for {text.validity}.
          </p>
          <TextField
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={values.otp}
            onValueChange={set('otp', (value) => digitsOnly(value, 6))}
            error={errors.otp}
            maxLength={6}
            className="input otp-input"
          />
          <Button variant="link" onClick={resendCode} disabled={countdown.remaining > 0 || busy}>
            {countdown.remaining > 0 ? `Resend in ${countdown.remaining}s` : 'Resend code'}
          </Button>
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => setStep(1)}>
              Back
            </Button>
            <Button type="submit" disabled={busy}>
              Verify code
            </Button>
          </div>
        </form>
      ) : null}
      {step === 3 ? (
        <form onSubmit={saveSecret} noValidate className="form-stack">
          <PasswordField
            label={text.secretLabel}
            inputMode={kind === 'pin' ? 'numeric' : undefined}
            autoComplete="new-password"
            value={values.secret}
            onValueChange={set('secret', secretInput)}
            error={errors.secret}
          />
          <PasswordField
            label={text.confirmLabel}
            inputMode={kind === 'pin' ? 'numeric' : undefined}
            autoComplete="new-password"
            value={values.confirm}
            onValueChange={set('confirm', secretInput)}
            error={errors.confirm}
          />
          <div className="modal-actions">
            <Button variant="secondary" onClick={() => setStep(2)}>
              Back
            </Button>
            <Button type="submit" disabled={busy}>
              {kind === 'pin' ? 'Update PIN' : 'Reset password'}
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
