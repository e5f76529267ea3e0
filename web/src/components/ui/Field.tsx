/**
 * Labelled form fields with their error message under the field, wired for screen readers
 * (aria-invalid, aria-describedby): text, password with show/hide, select, textarea with a
 * character counter.
 */
import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { Icon } from './icons.tsx';

interface FieldShellProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  trailing?: ReactNode;
}

function FieldShell({ id, label, error, hint, children, trailing }: FieldShellProps): ReactElement {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-label-row">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {trailing}
      </div>
      {children}
      {hint && !error ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

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
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      adornment={
        <button
          type="button"
          className="input-toggle"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? `Hide ${props.label}` : `Show ${props.label}`}
          aria-pressed={visible}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
        </button>
      }
    />
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> {
  label: string;
  error?: string | undefined;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
  onValueChange: (value: string) => void;
}

export function SelectField({
  label,
  error,
  options,
  placeholder,
  onValueChange,
  id,
  ...rest
}: SelectFieldProps): ReactElement {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldShell id={fieldId} label={label} error={error}>
      <select
        id={fieldId}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        onChange={(event) => onValueChange(event.target.value)}
        {...rest}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> {
  label: string;
  error?: string | undefined;
  value: string;
  maxLength: number;
  onValueChange: (value: string) => void;
}

export function TextAreaField({
  label,
  error,
  value,
  maxLength,
  onValueChange,
  id,
  ...rest
}: TextAreaFieldProps): ReactElement {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldShell
      id={fieldId}
      label={label}
      error={error}
      trailing={
        <span className="field-counter" aria-live="polite">
          {value.length}/{maxLength}
        </span>
      }
    >
      <textarea
        id={fieldId}
        className="input textarea"
        value={value}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        onChange={(event) => onValueChange(event.target.value.slice(0, maxLength))}
        rows={3}
        {...rest}
      />
    </FieldShell>
  );
}
