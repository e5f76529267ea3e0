import { describe, expect, it } from 'vitest';
import { newId } from './index.ts';

describe('newId', () => {
  it('makes version-7 UUIDs that sort in the order they were made, also within a millisecond', () => {
    const ids = Array.from({ length: 2_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const millis = parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(millis - Date.now())).toBeLessThan(60_000);
  });
});
