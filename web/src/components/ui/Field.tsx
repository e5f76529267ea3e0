/**
 * Labelled form fields with their error message under the field, wired for screen readers
 * (aria-invalid, aria-describedby): text and password with show/hide here; select
 * (SelectField.tsx) and textarea with a character counter (TextAreaField.tsx), exported
 * from here too so forms import every field from one place.
 */
import { useId, useState, type InputHTMLAttributes, type ReactElement, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldShell } from './FieldShell.tsx';
import { Icon } from './icons.tsx';

export { SelectField, type SelectFieldProps } from './SelectField.tsx';
export { TextAreaField, type TextAreaFieldProps } from './TextAreaField.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  onValueChange: (value: string) => void;
  adornment?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  error,
  hint,
  onValueChange,
  adornment,
  id,
  ref,
  ...rest
}: TextFieldProps): ReactElement {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint}>
      <div className="input-wrap">
        <input
          ref={ref}
          id={fieldId}
          className="input"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
          onChange={(event) => onValueChange(event.target.value)}
          {...rest}
        />
        {adornment}
      </div>
    </FieldShell>
  );
}

export function PasswordField(props: Omit<TextFieldProps, 'type' | 'adornment'>): ReactElement {
  const [visible, setVisible] = useState(false);
  const { t } = useTranslation();
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      adornment={
        <button
          type="button"
          className="input-toggle"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={t(visible ? 'common.hide' : 'common.show', { what: props.label })}
          aria-pressed={visible}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
        </button>
      }
    />
  );
}
