/**
 * The registration form's fields: identity (names, e-mail, contact, identification,
 * address), then password and PIN with their confirmations (PIN inputs keep digits only,
 * at most 6).
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { IDENTIFICATION_TYPES } from '../../../../../contracts/users.ts';
import { PasswordField, SelectField, TextField } from '../../../components/ui/Field.tsx';
import { digitsOnly } from '../../../lib/forms.ts';
import type { RegisterFormState } from './useRegisterForm.ts';
import { idTypeLabel } from '../../../lib/id-type.ts';

const pinInput = (value: string) => digitsOnly(value, 6);

export function IdentityFields({ form }: { form: RegisterFormState }): ReactElement {
  const { values, errors, set } = form;
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t('register.firstName')}
        autoComplete="given-name"
        value={values.firstName}
        onValueChange={set('firstName')}
        error={errors.firstName}
      />
      <TextField
        label={t('register.lastName')}
        autoComplete="family-name"
        value={values.lastName}
        onValueChange={set('lastName')}
        error={errors.lastName}
      />
      <TextField
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        value={values.email}
        onValueChange={set('email')}
        error={errors.email}
      />
      <TextField
        label={t('register.contactNo')}
        type="tel"
        autoComplete="tel"
        value={values.contactNo}
        onValueChange={set('contactNo')}
        error={errors.contactNo}
        placeholder="+91 98765 43210"
      />
      <SelectField
        label={t('register.identification')}
        value={values.identification}
        onValueChange={set('identification')}
        error={errors.identification}
        placeholder={t('register.identificationPlaceholder')}
        options={IDENTIFICATION_TYPES.map((type) => ({ value: type, label: idTypeLabel(type) }))}
      />
      <TextField
        label={t('register.identificationNumber')}
        value={values.identificationNumber}
        onValueChange={set('identificationNumber')}
        error={errors.identificationNumber}
      />
      <div className="span-2">
        <TextField
          label={t('register.address')}
          autoComplete="street-address"
          value={values.address}
          onValueChange={set('address')}
          error={errors.address}
        />
      </div>
    </>
  );
}

export function SecretFields({ form }: { form: RegisterFormState }): ReactElement {
  const { values, errors, set } = form;
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={t('auth.password')}
        autoComplete="new-password"
        value={values.password}
        onValueChange={set('password')}
        error={errors.password}
        hint={t('register.passwordHint')}
      />
      <PasswordField
        label={t('register.confirmPassword')}
        autoComplete="new-password"
        value={values.confirmPassword}
        onValueChange={set('confirmPassword')}
        error={errors.confirmPassword}
      />
      <PasswordField
        label={t('register.pin')}
        inputMode="numeric"
        autoComplete="off"
        value={values.transactionPin}
        onValueChange={set('transactionPin', pinInput)}
        error={errors.transactionPin}
        hint={t('register.pinHint')}
      />
      <PasswordField
        label={t('register.confirmPin')}
        inputMode="numeric"
        autoComplete="off"
        value={values.confirmPin}
        onValueChange={set('confirmPin', pinInput)}
        error={errors.confirmPin}
      />
    </>
  );
}
