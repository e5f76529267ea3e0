/**
 * The registration screen (spec sections 2, 3, 5): every identity field, password and PIN
 * with confirmations (PIN inputs keep digits only, at most 6), Terms and Privacy, link to
 * /login. Success shows a toast and goes to /user-not-verified after 1.5 s.
 */
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { IDENTIFICATION_TYPES, registerFormSchema, type RegisterForm } from '../../../../../contracts/users.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { PasswordField, SelectField, TextField } from '../../../components/ui/Field.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { digitsOnly, validate, type FieldErrors } from '../../../lib/forms.ts';
import { NetworkError } from '../../../lib/api-client.ts';
import { useRegister } from '../api/register.ts';
import { AuthLayout } from './AuthLayout.tsx';

export const REGISTER_REDIRECT_MS = 1500;

type Values = { [Key in keyof RegisterForm]-?: string };

const EMPTY: Values = {
  firstName: '',
  lastName: '',
  email: '',
  contactNo: '',
  identification: '',
  identificationNumber: '',
  address: '',
  password: '',
  confirmPassword: '',
  transactionPin: '',
  confirmPin: '',
};

const POLICIES = {
  terms: {
    title: 'Terms of Service',
    text: 'Wallet balances are held in Indian rupees. You authorise every payment with your transaction PIN and remain responsible for keeping it secret. Accounts are activated after identity verification.',
  },
  privacy: {
    title: 'Privacy Policy',
    text: 'We keep your identity details to verify your account and to meet our regulatory duties. We never share your PIN or password; they are stored only as one-way hashes.',
  },
} as const;

export default function RegisterPage(): ReactElement {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [policy, setPolicy] = useState<keyof typeof POLICIES | null>(null);
  const [done, setDone] = useState(false);
  const navigate = useNavigate();
  const notify = useToast();
  const registration = useRegister();

  const set =
    (field: keyof Values, transform: (value: string) => string = (value) => value) =>
    (value: string) => {
      setValues((current) => ({ ...current, [field]: transform(value) }));
      if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
    };
  const pinInput = (value: string) => digitsOnly(value, 6);

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(registerFormSchema, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    const { confirmPassword: _password, confirmPin: _pin, ...payload } = checked.data;
    try {
      const reply = await registration.mutateAsync(payload);
      if (!reply.success) {
        notify({ tone: 'error', message: reply.message || 'Registration failed. Please try again.' });
        return;
      }
      notify({ tone: 'success', message: 'Registration successful!.' });
      setDone(true);
      window.setTimeout(
        () => navigate('/user-not-verified', { state: { message: reply.message || 'Registration successful!' } }),
        REGISTER_REDIRECT_MS,
      );
    } catch (error) {
      notify({
        tone: 'error',
        message:
          error instanceof NetworkError
            ? 'Registration failed. Please try again.'
            : 'Registration failed. Please try again.',
      });
    }
  }

  const busy = registration.isPending || done;
  return (
    <AuthLayout
      title="Create your wallet"
      subtitle="Tell us who you are. We verify every account before it can move money."
      wide
    >
      <form onSubmit={submit} noValidate className="form-grid" aria-label="Register">
        <TextField
          label="First name"
          autoComplete="given-name"
          value={values.firstName}
          onValueChange={set('firstName')}
          error={errors.firstName}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          value={values.lastName}
          onValueChange={set('lastName')}
          error={errors.lastName}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onValueChange={set('email')}
          error={errors.email}
        />
        <TextField
          label="Contact number"
          type="tel"
          autoComplete="tel"
          value={values.contactNo}
          onValueChange={set('contactNo')}
          error={errors.contactNo}
          placeholder="+91 98765 43210"
        />
        <SelectField
          label="Identification type"
          value={values.identification}
          onValueChange={set('identification')}
          error={errors.identification}
          placeholder="Select identification type"
          options={IDENTIFICATION_TYPES.map((type) => ({ value: type, label: type }))}
        />
        <TextField
          label="Identification number"
          value={values.identificationNumber}
          onValueChange={set('identificationNumber')}
          error={errors.identificationNumber}
        />
        <div className="span-2">
          <TextField
            label="Address"
            autoComplete="street-address"
            value={values.address}
            onValueChange={set('address')}
            error={errors.address}
          />
        </div>
        <PasswordField
          label="Password"
          autoComplete="new-password"
          value={values.password}
          onValueChange={set('password')}
          error={errors.password}
          hint="At least 8 characters"
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onValueChange={set('confirmPassword')}
          error={errors.confirmPassword}
        />
        <PasswordField
          label="Transaction PIN"
          inputMode="numeric"
          autoComplete="off"
          value={values.transactionPin}
          onValueChange={set('transactionPin', pinInput)}
          error={errors.transactionPin}
          hint="4 to 6 digits"
        />
        <PasswordField
          label="Confirm PIN"
          inputMode="numeric"
          autoComplete="off"
          value={values.confirmPin}
          onValueChange={set('confirmPin', pinInput)}
          error={errors.confirmPin}
        />
        <p className="span-2 fine-print">
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
          <Button type="submit" block size="lg" disabled={busy}>
            {registration.isPending ? 'Creating account...' : 'Create account'}
          </Button>
        </div>
      </form>
      <p className="auth-switch">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
      <Modal
        open={policy !== null}
        onOpenChange={(open) => (open ? undefined : setPolicy(null))}
        title={policy ? POLICIES[policy].title : ''}
      >
        <p>{policy ? POLICIES[policy].text : ''}</p>
        <div className="modal-actions">
          <Button onClick={() => setPolicy(null)}>Close</Button>
        </div>
      </Modal>
    </AuthLayout>
  );
}
