// A page of a listing and the cursor to the next one.

export interface Page<T> {
  items: T[];
  /** Pass back as `after` for the next page; null at the end. */
  next_cursor: string | null;
}
