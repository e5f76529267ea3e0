/**
 * The sign-in screen (spec sections 2, 4, 5, 8): e-mail, password with show/hide, remember
 * me, Forgot password?, Google sign-in, link to /register; reads ?token&success (accepted
 * only with the nonce this tab started the Google sign-in with, and taken out of the address
 * bar before the first paint) and ?error.
 */
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { loginSchema } from '../../../../../contracts/users.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, TextField } from '../../../components/ui/Field.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { safeNext } from '../../../lib/next-path.ts';
import { useAppConfig } from '../../../lib/api/app-config.ts';
import { useLogin } from '../api/login.ts';
import { clearGoogleSignInFromAddressBar, startGoogleSignInUrl, takeGoogleSignInNonce } from '../lib/google-nonce.ts';
import { AuthLayout } from './AuthLayout.tsx';

export const SIGN_IN_DELAY_MS = 1000;

const OAUTH_ERRORS: Record<string, string> = {
  oauth_failed: 'Google authentication failed. Please try again.',
  token_generation_failed: 'Authentication error. Please try again.',
};

export interface LoginFormProps {
  onSignedIn: (token: string) => void;
  onForgotPassword: () => void;
}

export function LoginForm({ onSignedIn, onForgotPassword }: LoginFormProps): ReactElement {
  const [values, setValues] = useState({ email: '', password: '', rememberMe: false });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const notify = useToast();
  const login = useLogin();
  const config = useAppConfig();
  const [signingIn, setSigningIn] = useState(false);
  const handled = useRef(false);
  const next = safeNext(params.get('next'));

  // The token leaves the address bar at once, accepted or not (the router keeps its own copy of the query).
  useLayoutEffect(() => clearGoogleSignInFromAddressBar(), []);

  useEffect(() => {
    if (handled.current) return;
    const token = params.get('token');
    const error = params.get('error');
    if (token && params.get('success')) {
      handled.current = true;
      // A token this tab did not ask for (no matching nonce) is refused: login CSRF.
      if (!takeGoogleSignInNonce(params.get('nonce'))) {
        notify({ tone: 'error', message: 'Login failed. Please try again.', durationMs: 5000 });
        setParams({}, { replace: true });
        return;
      }
      onSignedIn(token);
      navigate(next, { replace: true });
    } else if (error) {
      handled.current = true;
      notify({ tone: 'error', message: OAUTH_ERRORS[error] ?? 'Login failed. Please try again.', durationMs: 5000 });
      setParams({}, { replace: true });
    }
  }, [params, setParams, navigate, notify, onSignedIn, next]);

  const set = (field: 'email' | 'password') => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  };

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(loginSchema, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      const reply = await login.mutateAsync(checked.data);
      if (reply.success && typeof reply.data === 'string') {
        const token = reply.data;
        notify({ tone: 'success', message: 'Login successful! Welcome back.', durationMs: 3000 });
        setSigningIn(true);
        window.setTimeout(() => {
          onSignedIn(token);
          navigate(next, { replace: true });
        }, SIGN_IN_DELAY_MS);
      } else if (reply.code === 'USER_NOT_VERIFIED') {
        notify({ tone: 'warning', message: 'Please verify your email address to continue.' });
        navigate('/user-not-verified');
      } else {
        notify({ tone: 'error', message: reply.message || 'Login failed. Please check your credentials.' });
      }
    } catch {
      notify({ tone: 'error', message: 'Login failed. Please check your credentials.' });
    }
  }

  const busy = login.isPending || signingIn;
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
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.rememberMe}
              onChange={(event) => setValues((current) => ({ ...current, rememberMe: event.target.checked }))}
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
      <div className="divider">
        <span>or</span>
      </div>
      <Button variant="secondary" block size="lg" onClick={() => window.location.assign(startGoogleSignInUrl())}>
        <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
          <path
            fill="#EA4335"
            d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
          />
          <path
            fill="#4285F4"
            d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
          />
          <path
            fill="#FBBC05"
            d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
          />
          <path
            fill="#34A853"
            d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
          />
        </svg>
        Continue with Google
      </Button>
      {config.data && !config.data.googleSignIn ? (
        <p className="field-hint" role="note">
          Google sign-in is not configured on this server.
        </p>
      ) : null}
      <p className="auth-switch">
        New to Rupee Wallet? <Link to="/register">Create an account</Link>
      </p>
    </AuthLayout>
  );
}
