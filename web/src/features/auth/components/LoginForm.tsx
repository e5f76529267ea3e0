/**
 * The sign-in screen (spec sections 2, 4, 5, 8): e-mail, password with show/hide, remember
 * me, Forgot password?, Google sign-in, link to /register. The view; state, submission and
 * the Google sign-in's return are useLoginForm.ts.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextField } from '../../../components/ui/Field.tsx';
import { AuthLayout, AuthSwitch } from './AuthLayout.tsx';
import { GoogleSignInButton } from './GoogleSignInButton.tsx';
import styles from './LoginForm.module.css';
import { useLoginForm } from './useLoginForm.ts';

export interface LoginFormProps {
  onSignedIn: (token: string) => void;
  onForgotPassword: () => void;
}

export function LoginForm({ onSignedIn, onForgotPassword }: LoginFormProps): ReactElement {
  const { values, errors, set, setRememberMe, submit, busy } = useLoginForm(onSignedIn);
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={submit} noValidate className="form-stack" aria-label={t('login.form')}>
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          value={values.email}
          onValueChange={set('email')}
          error={errors.email}
          placeholder={t('login.emailPlaceholder')}
        />
        <PasswordField
          label={t('auth.password')}
          autoComplete="current-password"
          value={values.password}
          onValueChange={set('password')}
          error={errors.password}
          placeholder={t('login.passwordPlaceholder')}
        />
        <div className="row-between">
          <label className={styles.checkbox}>
            <input
              type="checkbox"
              checked={values.rememberMe}
              onChange={(event) => setRememberMe(event.target.checked)}
            />
            <span>{t('login.rememberMe')}</span>
          </label>
          <Button variant="link" onClick={onForgotPassword}>
            {t('login.forgotPassword')}
          </Button>
        </div>
        <Button type="submit" block size="lg" disabled={busy}>
          {busy ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
      <div className={styles.divider}>
        <span>{t('common.or')}</span>
      </div>
      <GoogleSignInButton />
      <AuthSwitch>
        {t('login.newHere')} <Link to="/register">{t('login.createAccount')}</Link>
      </AuthSwitch>
    </AuthLayout>
  );
}
