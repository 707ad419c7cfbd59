// What counts request body bytes held at once: the request observer adds and releases, a gauge reads it.

/** Bytes of request bodies read and not yet answered; a body budget can own it, a gauge reads it. */
export interface BytesInFlight {
  add(bytes: number): void;
  release(bytes: number): void;
}
