/**
 * The architecture page lists the code map from contracts/code-map.ts, the data ESLint's import
 * zones come from, and a selected box of the diagram names the folders it lives in with the
 * map's line for each.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CODE_MAP, OTHER_FOLDERS } from '../../../../../contracts/code-map.ts';
import { renderWithApp } from '../../../test/harness.tsx';
import ArchitecturePage from './ArchitecturePage.tsx';

/** The text a map line shows once its backticks became code elements. */
function shown(line: string): string {
  return line.replaceAll('`', '');
}

describe('the architecture page', () => {
  it('lists every folder of the code map with what it owns and what it may import', () => {
    renderWithApp(<ArchitecturePage />, { path: '/architecture' });
    const map = screen.getByRole('region', { name: 'The code map' });
    const terms = within(map)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual([...Object.keys(CODE_MAP), ...Object.keys(OTHER_FOLDERS)].map((folder) => `${folder}/`));
    const definitions = within(map)
      .getAllByRole('definition')
      .map((definition) => definition.textContent);
    expect(definitions).toContain(shown(CODE_MAP.platform.owns));
    expect(definitions).toContain('may import: nothing of ours');
    expect(definitions).toContain(`may import: ${CODE_MAP.e2e.mayImport.map((folder) => `${folder}/`).join(', ')}`);
  });

  it("shows where a selected box lives, in the code map's words", () => {
    renderWithApp(<ArchitecturePage />, { path: '/architecture' });
    fireEvent.click(screen.getByRole('button', { name: 'Mail Service' }));
    const detail = document.getElementById('arch-detail');
    expect(detail).not.toBeNull();
    const places = within(detail!)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(places).toEqual([`notifications/ ${shown(CODE_MAP.notifications.owns)}`]);
  });
});
