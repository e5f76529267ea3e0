/**
 * The frame of every form field: the label (with an optional trailing part, e.g. a
 * counter), the control, then the hint or the error message, whose ids the control names
 * in aria-describedby. The error is said in the chosen language when it is a shared form rule's
 * (lib/form-errors.ts).
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localizedFormError } from '../../lib/form-errors.ts';

export interface FieldShellProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
  trailing?: ReactNode;
}

export function FieldShell({ id, label, error, hint, children, trailing }: FieldShellProps): ReactElement {
  const { t } = useTranslation();
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
          {localizedFormError(error, t)}
        </p>
      ) : null}
    </div>
  );
}
