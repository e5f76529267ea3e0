import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it('mints UUIDv7s that sort in the order they were minted, across milliseconds', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      ids.push(newId());
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(
      true,
    );
    expect(ids.toSorted()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries the minting time in its first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const millis = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(Date.now());
  });
});
