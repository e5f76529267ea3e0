/**
 * The registration screen (spec sections 2, 3, 5): every identity field, password and PIN
 * with confirmations, links to the Terms and Privacy pages, link to /login. Success shows a toast and goes to
 * /user-not-verified after 1.5 s. The view; state and submission are useRegisterForm.ts.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/Button.tsx';
import { AuthLayout, AuthSwitch } from './AuthLayout.tsx';
import { IdentityFields, SecretFields } from './RegisterFields.tsx';
import styles from './RegisterPage.module.css';
import { useRegisterForm } from './useRegisterForm.ts';

/**
 * The whole Terms or Privacy page (features/legal), not the old two-line summary in a pop-up;
 * in a new tab, so the form filled so far stays.
 */
function PolicyLink({ to, text }: { to: '/terms' | '/privacy'; text: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <Link to={to} target="_blank" rel="noopener">
      {text}
      <span className="sr-only"> {t('register.newTab')}</span>
    </Link>
  );
}

export default function RegisterPage(): ReactElement {
  const form = useRegisterForm();
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')} wide>
      <form onSubmit={form.submit} noValidate className="form-grid" aria-label={t('register.form')}>
        <IdentityFields form={form} />
        <SecretFields form={form} />
        <p className={`span-2 ${styles.finePrint}`}>
          {t('register.agreeBefore')} <PolicyLink to="/terms" text={t('register.terms')} />
          {t('register.agreeAnd')} <PolicyLink to="/privacy" text={t('register.privacy')} />
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
    </AuthLayout>
  );
}
