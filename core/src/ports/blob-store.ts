// The blob store port: large binary content of tool results, kept once by its SHA-256.

/** The stored bytes of a blob and their media type. */
export interface Blob {
  sha256: string;
  size: number;
  mimeType: string | null;
  bytes: Buffer;
}

/** The blob table: content-addressed, written once (a second put of the same bytes is a no-op). */
export interface BlobStore {
  put(blob: Blob): Promise<void>;
  get(sha256: string): Promise<Blob | undefined>;
}
export const BlobStore = Symbol.for('switchyard.BlobStore');
