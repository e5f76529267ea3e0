/**
 * Identification types are shown in the reader's language (the wire keeps the spec's English):
 * they stayed English on the Hindi registration form, profile and identity check.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { IDENTIFICATION_TYPES } from '../../../contracts/users.ts';
import { idTypeLabel } from './id-type.ts';

describe('identification types', () => {
  it('are the spec’s words in English, and Hindi words in Hindi', async () => {
    expect(IDENTIFICATION_TYPES.map(idTypeLabel)).toEqual([...IDENTIFICATION_TYPES]);
    await i18next.changeLanguage('hi');
    expect(IDENTIFICATION_TYPES.map(idTypeLabel)).toEqual([
      'पासपोर्ट',
      'ड्राइविंग लाइसेंस',
      'राष्ट्रीय पहचान पत्र',
      'आधार कार्ड',
      'पैन कार्ड',
    ]);
    expect(idTypeLabel('Ration Card')).toBe('Ration Card');
  });
});
