/**
 * The registration screen (spec sections 2, 3, 5): every identity field, password and PIN
 * with confirmations, Terms and Privacy, link to /login. Success shows a toast and goes to
 * /user-not-verified after 1.5 s. The view; state and submission are useRegisterForm.ts.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')} wide>
      <form onSubmit={form.submit} noValidate className="form-grid" aria-label={t('register.form')}>
        <IdentityFields form={form} />
        <SecretFields form={form} />
        <p className={`span-2 ${styles.finePrint}`}>
          {t('register.agreeBefore')}{' '}
          <Button variant="link" onClick={() => setPolicy('terms')}>
            {t('register.terms')}
          </Button>{' '}
          {t('register.agreeAnd')}{' '}
          <Button variant="link" onClick={() => setPolicy('privacy')}>
            {t('register.privacy')}
          </Button>
          {t('register.agreeAfter')}
        </p>
        <div className="span-2">
          <Button type="submit" block size="lg" disabled={form.busy}>
            {form.pending ? t('register.submitting') : t('register.submit')}
          </Button>
        </div>
      </form>
      <AuthSwitch>
        {t('register.haveAccount')} <Link to="/login">{t('register.signIn')}</Link>
      </AuthSwitch>
      <PolicyDialog policy={policy} onClose={() => setPolicy(null)} />
    </AuthLayout>
  );
}
