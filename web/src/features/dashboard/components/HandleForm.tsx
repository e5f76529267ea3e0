/**
 * Choosing one's handle on the dashboard's profile (issue 43): checked with the contract's rule
 * before it is sent; the server's refusal (taken, already set) is said under the field.
 */
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseHandleSchema } from '../../../../../contracts/payees.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { validate } from '../../../lib/forms.ts';
import { useSetHandle } from '../api/set-handle.ts';
import styles from './HandleForm.module.css';

export function HandleForm(): ReactElement {
  const { t } = useTranslation();
  const notify = useToast();
  const save = useSetHandle();
  const [handle, setHandle] = useState('');
  const [error, setError] = useState('');
  const hintId = useId();

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const checked = validate(chooseHandleSchema, { handle });
    if (!checked.ok) {
      setError(checked.errors.handle ?? checked.first);
      return;
    }
    try {
      const reply = await save.mutateAsync(checked.data);
      if (reply.success) notify({ tone: 'success', message: t('payees.handleSaved') });
      else setError(reply.message || t('payees.handleFailed'));
    } catch {
      // No answer (network): nothing was saved, so the form stays as typed.
      setError(t('payees.handleFailed'));
    }
  }

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-describedby={hintId}>
      <p className="muted" id={hintId}>
        {t('payees.handleHint')}
      </p>
      <div className={styles.row}>
        <TextField
          label={t('payees.chooseHandle')}
          value={handle}
          onValueChange={(value) => {
            setHandle(value);
            setError('');
          }}
          error={error}
          placeholder="asha@wallet"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <Button type="submit" variant="secondary" disabled={save.isPending}>
          {save.isPending ? t('payees.saving') : t('payees.saveHandle')}
        </Button>
      </div>
    </form>
  );
}
