/**
 * The sign-in screen (spec sections 2, 4, 5, 8): e-mail, password with show/hide, remember
 * me, Forgot password?, Google sign-in, link to /register. The view; state, submission and
 * the Google sign-in's return are useLoginForm.ts.
 */
import type { ReactElement } from 'react';
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
  return (
    <AuthLayout title="Welcome back" subtitle="Sign in to your wallet to send, request and receive money.">
      <form onSubmit={submit} noValidate className="form-stack" aria-label="Sign in">
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onValueChange={set('email')}
          error={errors.email}
          placeholder="you@example.com"
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          value={values.password}
          onValueChange={set('password')}
          error={errors.password}
          placeholder="Your password"
        />
        <div className="row-between">
          <label className={styles.checkbox}>
            <input
              type="checkbox"
              checked={values.rememberMe}
              onChange={(event) => setRememberMe(event.target.checked)}
            />
            <span>Remember me</span>
          </label>
          <Button variant="link" onClick={onForgotPassword}>
            Forgot password?
          </Button>
        </div>
        <Button type="submit" block size="lg" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
      <div className={styles.divider}>
        <span>or</span>
      </div>
      <GoogleSignInButton />
      <AuthSwitch>
        New to Rupee Wallet? <Link to="/register">Create an account</Link>
      </AuthSwitch>
    </AuthLayout>
  );
}
