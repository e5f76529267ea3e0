/**
 * The registration form's fields: identity (names, e-mail, contact, identification,
 * address), then password and PIN with their confirmations (PIN inputs keep digits only,
 * at most 6).
 */
import type { ReactElement } from 'react';
import { IDENTIFICATION_TYPES } from '../../../../../contracts/users.ts';
import { PasswordField, SelectField, TextField } from '../../../components/ui/Field.tsx';
import { digitsOnly } from '../../../lib/forms.ts';
import type { RegisterFormState } from './useRegisterForm.ts';

const pinInput = (value: string) => digitsOnly(value, 6);

export function IdentityFields({ form }: { form: RegisterFormState }): ReactElement {
  const { values, errors, set } = form;
  return (
    <>
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
    </>
  );
}

export function SecretFields({ form }: { form: RegisterFormState }): ReactElement {
  const { values, errors, set } = form;
  return (
    <>
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
    </>
  );
}
