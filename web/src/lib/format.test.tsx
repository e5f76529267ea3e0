/**
 * The app's formats in the chosen language: a balance to the paisa everywhere (₹8,001.00),
 * and in Hindi the time's am/pm and the charts' days and months in Hindi (they were English:
 * Intl's Hindi keeps "am"/"pm" in Latin letters, and the charts asked for en-IN outright).
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatBalance, formatDateTime, formatDay, formatMonth } from './format.ts';

describe('formats', () => {
  it('writes a balance to the paisa, a whole one too', () => {
    expect(formatBalance(8001)).toBe('₹8,001.00');
    expect(formatBalance(4000.5)).toBe('₹4,000.50');
    expect(formatBalance(0)).toBe('₹0.00');
  });

  it('says the time and the chart labels in English', () => {
    // 14:05 UTC is 7:35 pm in India.
    expect(formatDateTime('2026-11-27T14:05:00.000Z')).toBe('27 Nov 2026, 7:35 pm');
    expect(formatDay('2026-06-01')).toBe('1 Jun');
    expect(formatMonth('2026-11')).toBe('Nov 26');
  });

  it('says am/pm and the chart months in Hindi', async () => {
    await i18next.changeLanguage('hi');
    expect(formatDateTime('2026-11-27T14:05:00.000Z')).toBe('27 नव॰ 2026, 7:35 अपराह्न');
    expect(formatDateTime('2026-11-27T04:05:00.000Z')).toBe('27 नव॰ 2026, 9:35 पूर्वाह्न');
    expect(formatDay('2026-06-01')).toBe('1 जून');
    expect(formatMonth('2026-11')).toBe('नव॰ 26');
  });
});
