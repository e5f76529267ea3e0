/**
 * The registration form's state and submission (spec sections 3, 5): the values (PIN
 * inputs keep digits only, at most 6), validation with the shared registration schema, the
 * payload without the confirmations, the call with its toasts, and the move to
 * /user-not-verified 1.5 s after success. The view is RegisterPage.tsx.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { registerFormSchema, type RegisterForm } from '../../../../../contracts/users.ts';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { validate, type FieldErrors } from '../../../lib/forms.ts';
import { useRegister } from '../api/register.ts';

export const REGISTER_REDIRECT_MS = 1500;

export type RegisterValues = { [Key in keyof RegisterForm]-?: string };

const EMPTY: RegisterValues = {
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

export function useRegisterForm() {
  const [values, setValues] = useState<RegisterValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState(false);
  const navigate = useNavigate();
  const notify = useToast();
  const { t } = useTranslation();
  const registration = useRegister();

  const set =
    (field: keyof RegisterValues, transform: (value: string) => string = (value) => value) =>
    (value: string) => {
      setValues((current) => ({ ...current, [field]: transform(value) }));
      if (errors[field]) setErrors((current) => ({ ...current, [field]: '' }));
    };

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
        notify({ tone: 'error', message: reply.message || t('register.failed') });
        return;
      }
      notify({ tone: 'success', message: t('register.success') });
      setDone(true);
      window.setTimeout(
        // The toast said it; the next page goes on to what happens next, not the same words again.
        () => navigate('/user-not-verified', { state: { registered: true } }),
        REGISTER_REDIRECT_MS,
      );
    } catch {
      // A network failure and an unreadable reply say the same.
      notify({ tone: 'error', message: t('register.failed') });
    }
  }

  return {
    values,
    errors,
    set,
    submit,
    pending: registration.isPending,
    busy: registration.isPending || done,
  };
}

export type RegisterFormState = ReturnType<typeof useRegisterForm>;
