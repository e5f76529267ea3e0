/**
 * Event data as stored in jsonb. JSON has no bigint, so every field whose name ends in
 * `Paise` is written as a decimal string and read back as bigint: exact, and greppable.
 */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

export function reviveMoney<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => reviveMoney(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const revived: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    revived[key] =
      key.endsWith('Paise') && (typeof item === 'string' || typeof item === 'number')
        ? BigInt(item)
        : reviveMoney(item);
  }
  return revived as T;
}
