// Content blobs on knex: large binary parts of tool results, keyed by the SHA-256 of their bytes,
// so the same image returned by a thousand runs is stored once.
import type { Knex } from 'knex';
import type { Blob, BlobStore } from '@switchyard/core';

interface BlobRow {
  sha256: string;
  size: number | string;
  mime_type: string | null;
  bytes: Buffer;
}

export class KnexBlobStore implements BlobStore {
  constructor(private readonly knex: Knex) {}

  async put(blob: Blob): Promise<void> {
    // Content-addressed: a blob already stored is the same bytes, so a conflict changes nothing.
    await this.knex('content_blobs')
      .insert({ sha256: blob.sha256, size: blob.size, mime_type: blob.mimeType, bytes: blob.bytes, created_at: new Date().toISOString() })
      .onConflict('sha256')
      .ignore();
  }

  async get(sha256: string): Promise<Blob | undefined> {
    const row = await this.knex<BlobRow>('content_blobs').select('sha256', 'size', 'mime_type', 'bytes').where({ sha256 }).first();
    if (!row) return undefined;
    return { sha256: row.sha256, size: Number(row.size), mimeType: row.mime_type, bytes: Buffer.from(row.bytes) };
  }
}
