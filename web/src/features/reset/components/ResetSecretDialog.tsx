/**
 * Reset Password and Reset Transaction PIN (spec sections 4, 5, 8): three steps (e-mail ->
 * 6-digit code -> new secret), Back one step, Cancel/close resets everything, resend
 * disabled for 60 s ('Resend in Ns'). The view; state, validation and calls are
 * useResetSecretForm.ts.
 */
import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { digitsOnly } from '../../../lib/forms.ts';
import type { SecretKind } from '../api/reset-endpoints.ts';
import styles from './ResetSecretDialog.module.css';
import { useResetSecretForm, type ResetSecretForm } from './useResetSecretForm.ts';

export interface ResetSecretDialogProps {
  kind: SecretKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultEmail?: string;
}

function Stepper({ form }: { form: ResetSecretForm }): ReactElement {
  const { t } = useTranslation();
  const labels = [t('reset.stepEmail'), t('reset.stepCode'), form.text.secretLabel];
  return (
    <ol className={styles.stepper} aria-label={t('reset.progress')}>
      {labels.map((label, index) => (
        <li
          key={label}
          className={index + 1 === form.step ? styles.current : index + 1 < form.step ? styles.done : ''}
          aria-current={index + 1 === form.step ? 'step' : undefined}
        >
          <span>{index + 1}</span> {label}
        </li>
      ))}
    </ol>
  );
}

function EmailStep({ form }: { form: ResetSecretForm }): ReactElement {
  const { t } = useTranslation();
  return (
    <form onSubmit={form.requestCode} noValidate className="form-stack">
      <p className="muted">{t('reset.codeIntro', { validity: form.text.validity })}</p>
      <TextField
        label={t('reset.stepEmail')}
        type="email"
        autoComplete="email"
        value={form.values.email}
        onValueChange={form.set('email')}
        error={form.errors.email}
      />
      <div className="modal-actions">
        <Button variant="secondary" onClick={() => form.close(false)}>
          {t('reset.cancel')}
        </Button>
        <Button type="submit" disabled={form.busy}>
          {t('reset.sendCode')}
        </Button>
      </div>
    </form>
  );
}

function CodeStep({ form }: { form: ResetSecretForm }): ReactElement {
  const { t } = useTranslation();
  return (
    <form onSubmit={form.verifyCode} noValidate className="form-stack">
      <p className="muted">
        <Trans
          i18nKey="reset.codeSentTo"
          values={{ email: form.values.email, validity: form.text.validity }}
          components={{ strong: <strong /> }}
        />
      </p>
      <TextField
        label={t('reset.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={form.values.otp}
        onValueChange={form.set('otp', (value) => digitsOnly(value, 6))}
        error={form.errors.otp}
        maxLength={6}
        className={`input ${styles.otp}`}
      />
      <Button variant="link" onClick={form.resendCode} disabled={form.resendWait > 0 || form.busy}>
        {form.resendWait > 0 ? t('reset.resendIn', { seconds: form.resendWait }) : t('reset.resendCode')}
      </Button>
      <div className="modal-actions">
        <Button variant="secondary" onClick={() => form.setStep(1)}>
          {t('reset.back')}
        </Button>
        <Button type="submit" disabled={form.busy}>
          {t('reset.verifyCode')}
        </Button>
      </div>
    </form>
  );
}

function SecretStep({ form }: { form: ResetSecretForm }): ReactElement {
  const pin = form.kind === 'pin';
  const { t } = useTranslation();
  const secretInput = pin ? (value: string) => digitsOnly(value, 6) : (value: string) => value;
  return (
    <form onSubmit={form.saveSecret} noValidate className="form-stack">
      <PasswordField
        label={form.text.secretLabel}
        inputMode={pin ? 'numeric' : undefined}
        autoComplete="new-password"
        value={form.values.secret}
        onValueChange={form.set('secret', secretInput)}
        error={form.errors.secret}
      />
      <PasswordField
        label={form.text.confirmLabel}
        inputMode={pin ? 'numeric' : undefined}
        autoComplete="new-password"
        value={form.values.confirm}
        onValueChange={form.set('confirm', secretInput)}
        error={form.errors.confirm}
      />
      <div className="modal-actions">
        <Button variant="secondary" onClick={() => form.setStep(2)}>
          {t('reset.back')}
        </Button>
        <Button type="submit" disabled={form.busy}>
          {pin ? t('reset.updatePin') : t('reset.resetPassword')}
        </Button>
      </div>
    </form>
  );
}

export function ResetSecretDialog({
  kind,
  open,
  onOpenChange,
  defaultEmail = '',
}: ResetSecretDialogProps): ReactElement {
  const form = useResetSecretForm({ kind, defaultEmail, onOpenChange });
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={form.close}
      title={form.text.title}
      description={t('reset.stepOf', { step: form.step })}
      busy={form.busy}
      busyLabel={t('reset.wait')}
    >
      <Stepper form={form} />
      {form.step === 1 ? <EmailStep form={form} /> : null}
      {form.step === 2 ? <CodeStep form={form} /> : null}
      {form.step === 3 ? <SecretStep form={form} /> : null}
    </Modal>
  );
}
