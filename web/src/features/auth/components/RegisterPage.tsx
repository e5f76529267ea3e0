/**
 * The registration screen (spec sections 2, 3, 5): every identity field, password and PIN
 * with confirmations, Terms and Privacy, link to /login. Success shows a toast and goes to
 * /user-not-verified after 1.5 s. The view; state and submission are useRegisterForm.ts.
 */
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/Button.tsx';
import { AuthLayout, AuthSwitch } from './AuthLayout.tsx';
import { PolicyDialog, type Policy } from './PolicyDialog.tsx';
import { IdentityFields, SecretFields } from './RegisterFields.tsx';
import styles from './RegisterPage.module.css';
import { useRegisterForm } from './useRegisterForm.ts';

export default function RegisterPage(): ReactElement {
  const form = useRegisterForm();
  const [policy, setPolicy] = useState<Policy | null>(null);
  return (
    <AuthLayout
      title="Create your wallet"
      subtitle="Tell us who you are. We verify every account before it can move money."
      wide
    >
      <form onSubmit={form.submit} noValidate className="form-grid" aria-label="Register">
        <IdentityFields form={form} />
        <SecretFields form={form} />
        <p className={`span-2 ${styles.finePrint}`}>
          By creating an account you agree to our{' '}
          <Button variant="link" onClick={() => setPolicy('terms')}>
            Terms of Service
          </Button>{' '}
          and{' '}
          <Button variant="link" onClick={() => setPolicy('privacy')}>
            Privacy Policy
          </Button>
          .
        </p>
        <div className="span-2">
          <Button type="submit" block size="lg" disabled={form.busy}>
            {form.pending ? 'Creating account...' : 'Create account'}
          </Button>
        </div>
      </form>
      <AuthSwitch>
        Already have an account? <Link to="/login">Sign in</Link>
      </AuthSwitch>
      <PolicyDialog policy={policy} onClose={() => setPolicy(null)} />
    </AuthLayout>
  );
}
