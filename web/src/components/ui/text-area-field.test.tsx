/**
 * A note past its limit is kept as typed or pasted, never cut without a word: the counter
 * says how far over it is (in red), and the form's rule gives the reason when it is sent.
 * Regression test for the walk-through's silent truncation at 200 characters.
 */
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { TextAreaField } from './TextAreaField.tsx';

function Note(): ReactElement {
  const [value, setValue] = useState('');
  return <TextAreaField label="Reference" maxLength={10} value={value} onValueChange={setValue} />;
}

describe('a note with a limit', () => {
  it('keeps text past the limit and shows the counter over it', async () => {
    render(<Note />);
    const note = screen.getByLabelText<HTMLTextAreaElement>('Reference');
    await userEvent.click(note);
    await userEvent.paste('twelve chars');
    expect(note.value).toBe('twelve chars');
    expect(note.maxLength).toBe(-1);
    const counter = screen.getByText('12/10');
    expect(counter.className).toContain('field-counter-over');
  });

  it('draws the counter plainly within the limit', async () => {
    render(<Note />);
    await userEvent.type(screen.getByLabelText('Reference'), 'ten chars!');
    expect(screen.getByText('10/10').className).not.toContain('field-counter-over');
  });
});
