/**
 * A labelled textarea with a character counter (n/max, announced politely) and its error
 * message. Text past the maximum is kept, never cut: a pasted note that lost its end without a
 * word would be sent as something the payer did not write. The counter turns red past it, and
 * the form's rule (contracts/) refuses it with its reason when the form is sent.
 */
import { useId, type ReactElement, type TextareaHTMLAttributes } from 'react';
import { FieldShell } from './FieldShell.tsx';

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
        <span className={`field-counter${value.length > maxLength ? ' field-counter-over' : ''}`} aria-live="polite">
          {value.length}/{maxLength}
        </span>
      }
    >
      <textarea
        id={fieldId}
        className="input textarea"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        onChange={(event) => onValueChange(event.target.value)}
        rows={3}
        {...rest}
      />
    </FieldShell>
  );
}
