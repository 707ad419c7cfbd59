// Large binary parts of tool content stored once in the blob store, by the SHA-256 of their bytes,
// and put back: the record keeps a reference (tool-content.ts's BlobRef) in their place.
import { createHash } from 'node:crypto';
import { base64Of, blobRefOf, type BlobRef, type ContentBlock } from './tool-content.js';
import type { BlobStore } from './ports.js';

/**
 * Moves binary parts over `threshold` bytes into the blob store and leaves a reference in their
 * place (`_blob: {sha256, size, mimeType}` instead of `data` or `resource.blob`). The blocks are
 * otherwise unchanged; `inlineBlobs` puts the bytes back.
 */
export async function externalizeBlobs(content: readonly ContentBlock[], store: BlobStore, threshold: number, urlFor: (sha256: string) => string): Promise<ContentBlock[]> {
  const out: ContentBlock[] = [];
  for (const block of content) {
    const data = base64Of(block);
    const bytes = data === undefined ? undefined : Buffer.from(data, 'base64');
    if (!bytes || bytes.length <= threshold) {
      out.push(block);
      continue;
    }
    const mimeType = typeof block['mimeType'] === 'string' ? block['mimeType'] : typeof (block['resource'] as Record<string, unknown> | undefined)?.['mimeType'] === 'string' ? ((block['resource'] as Record<string, unknown>)['mimeType'] as string) : null;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await store.put({ sha256, size: bytes.length, mimeType, bytes });
    const ref: BlobRef = { sha256, size: bytes.length, mimeType, url: urlFor(sha256) };
    if (block.type === 'resource') {
      const { blob: _bytes, ...resource } = block['resource'] as Record<string, unknown>;
      out.push({ ...block, resource: { ...resource, _blob: ref } });
    } else {
      const { data: _bytes, ...rest } = block;
      out.push({ ...rest, type: block.type, _blob: ref });
    }
  }
  return out;
}

/** The blocks as the upstream sent them: every blob reference replaced by its bytes again. */
export async function inlineBlobs(content: readonly ContentBlock[], store: Pick<BlobStore, 'get'>): Promise<ContentBlock[]> {
  const out: ContentBlock[] = [];
  for (const block of content) {
    const ref = blobRefOf(block);
    if (!ref) {
      out.push(block);
      continue;
    }
    const blob = await store.get(ref.sha256);
    const data = blob ? blob.bytes.toString('base64') : '';
    if (block.type === 'resource') {
      const { _blob, ...resource } = block['resource'] as Record<string, unknown>;
      out.push({ ...block, resource: { ...resource, blob: data } });
    } else {
      const { _blob, ...rest } = block;
      out.push({ ...rest, type: block.type, data });
    }
  }
  return out;
}
