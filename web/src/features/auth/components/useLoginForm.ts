/**
 * The sign-in form's state and submission (spec sections 4, 5, 8): the values, validation
 * with the shared login schema, the call with its toasts, and the 1 s pause before signing
 * in. Also reads a Google sign-in's ?token&success (accepted only with the nonce this tab
 * started the sign-in with, and taken out of the address bar before the first paint) and
 * ?error. The view is LoginForm.tsx.
 */
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { loginSchema } from '../../../../../contracts/users.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { safeNext } from '../../../lib/next-path.ts';
import { useLogin } from '../api/login.ts';
import { clearGoogleSignInFromAddressBar, takeGoogleSignInNonce } from '../lib/google-nonce.ts';

export const SIGN_IN_DELAY_MS = 1000;

const OAUTH_ERRORS: Record<string, 'login.googleFailed' | 'login.tokenFailed'> = {
  oauth_failed: 'login.googleFailed',
  token_generation_failed: 'login.tokenFailed',
};

export function useLoginForm(onSignedIn: (token: string) => void) {
  const [values, setValues] = useState({ email: '', password: '', rememberMe: false });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const notify = useToast();
  const { t } = useTranslation();
  const login = useLogin();
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
        notify({ tone: 'error', message: t('login.failed'), durationMs: 5000 });
        setParams({}, { replace: true });
        return;
      }
      onSignedIn(token);
      navigate(next, { replace: true });
    } else if (error) {
      handled.current = true;
      notify({ tone: 'error', message: t(OAUTH_ERRORS[error] ?? 'login.failed'), durationMs: 5000 });
      setParams({}, { replace: true });
    }
  }, [params, setParams, navigate, notify, onSignedIn, next, t]);

  const set = (field: 'email' | 'password') => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
  };
  function setRememberMe(rememberMe: boolean): void {
    setValues((current) => ({ ...current, rememberMe }));
  }

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
        notify({ tone: 'success', message: t('login.success'), durationMs: 3000 });
        setSigningIn(true);
        window.setTimeout(() => {
          onSignedIn(token);
          navigate(next, { replace: true });
        }, SIGN_IN_DELAY_MS);
      } else if (reply.code === 'USER_NOT_VERIFIED') {
        // The spec's text asks for an e-mail check, but these accounts wait for an
        // administrator (docs/decisions/0012); the API's own message is left unchanged.
        notify({ tone: 'warning', message: t('pending.awaitingSubtitle') });
        navigate('/user-not-verified');
      } else {
        notify({ tone: 'error', message: reply.message || t('login.failedCredentials') });
      }
    } catch {
      notify({ tone: 'error', message: t('login.failedCredentials') });
    }
  }

  return { values, errors, set, setRememberMe, submit, busy: login.isPending || signingIn };
}
