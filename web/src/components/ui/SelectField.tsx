/**
 * A labelled select with an optional empty first option and its error message.
 */
import { useId, type ReactElement, type SelectHTMLAttributes } from 'react';
import { FieldShell } from './FieldShell.tsx';

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
