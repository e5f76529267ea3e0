/**
 * The shared phone card list: one card per row under the list's name, and expandable cards
 * of which one is open at a time.
 */
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { CardList, ExpandableCard, useExpandedCard } from './CardList.tsx';

const ROWS = [
  { _id: 'a', name: 'Asha' },
  { _id: 'b', name: 'Meera' },
];

function People(): ReactElement {
  const cards = useExpandedCard();
  return (
    <CardList
      rows={ROWS}
      label="People"
      renderCard={(row) => (
        <ExpandableCard
          open={cards.isOpen(row._id)}
          onToggle={() => cards.toggle(row._id)}
          title={row.name}
          subtitle="subtitle"
          end="end"
        >
          <p>Details of {row.name}</p>
        </ExpandableCard>
      )}
    />
  );
}

describe('card list', () => {
  it('opens one card at a time and closes it again', async () => {
    render(<People />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    const [asha, meera] = screen.getAllByRole('button');
    if (!asha || !meera) throw new Error('expected two cards');
    await userEvent.click(asha);
    expect(asha.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Details of Asha')).toBeTruthy();
    await userEvent.click(meera);
    expect(screen.queryByText('Details of Asha')).toBeNull();
    expect(screen.getByText('Details of Meera')).toBeTruthy();
    await userEvent.click(meera);
    expect(meera.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Details of Meera')).toBeNull();
  });
});
