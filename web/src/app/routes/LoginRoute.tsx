/**
 * /login: the sign-in form (auth) composed with the Reset Password dialog (reset).
 */
import { useState, type ReactElement } from 'react';
import { LoginForm } from '../../features/auth/components/LoginForm.tsx';
import { ResetSecretDialog } from '../../features/reset/components/ResetSecretDialog.tsx';
import { useSession } from '../session.tsx';

export default function LoginRoute(): ReactElement {
  const { signIn } = useSession();
  const [resetOpen, setResetOpen] = useState(false);
  return (
    <>
      <LoginForm onSignedIn={signIn} onForgotPassword={() => setResetOpen(true)} />
      <ResetSecretDialog kind="password" open={resetOpen} onOpenChange={setResetOpen} />
    </>
  );
}
