/**
 * Keyset paging, as every audit list pages: read one row more than the page holds; that row
 * only says there is a next page, whose key is the last row's on this one. Pages stay stable
 * while rows are added (no OFFSET to shift under the reader).
 */

export interface PageRequest {
  /** Rows after this key (the previous page's `nextAfter`). */
  after?: bigint | undefined;
  limit: number;
}

export interface KeysetPage<Item> {
  items: Item[];
  /** The key to continue from; null on the last page. */
  next: string | null;
}

/** `rows` as read with `limit + 1`. */
export function keysetPage<Row, Item>(
  rows: readonly Row[],
  limit: number,
  keyOf: (row: Row) => bigint,
  toItem: (row: Row) => Item,
): KeysetPage<Item> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(toItem), next: rows.length > limit && last !== undefined ? String(keyOf(last)) : null };
}
