/**
 * A labelled textarea with a character counter (n/max, announced politely) and its error
 * message; input past the maximum is cut.
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
