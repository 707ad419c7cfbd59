// Tool content as MCP defines it (text, image, audio, resource links, embedded resources), kept
// whole from the upstream to the ledger and back out; large binary parts stored once as blobs
// (blobs.ts moves them to the blob store and back).

/** One MCP content block, kept exactly as the upstream sent it (unknown fields included). */
export type ContentBlock = { type: string } & Record<string, unknown>;

const TOOL_OUTPUT = Symbol.for('switchyard.ToolOutput');

/** What a tool runner hands back when its upstream said more than a value: the whole answer. */
export class ToolOutput {
  readonly [TOOL_OUTPUT] = true;

  /** Works across duplicate copies of this package (plugins may load another), unlike instanceof. */
  static is(value: unknown): value is ToolOutput {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_OUTPUT] === true;
  }

  constructor(
    /** The result a dispatch caller reads: structuredContent, else the text (parsed when it is JSON). */
    readonly value: unknown,
    /** The upstream's content blocks, unchanged. */
    readonly content: ContentBlock[],
    /** The upstream's structuredContent, when it gave one. */
    readonly structuredContent: unknown = undefined,
  ) {}
}

/** One notifications/message from the upstream during a call. */
export interface UpstreamLogEntry {
  level: string;
  logger?: string;
  data: unknown;
}

/** A binary part stored once, by the SHA-256 of its bytes; the block in the record names it. */
export interface BlobRef {
  sha256: string;
  size: number;
  mimeType: string | null;
  /** Where the run's owner fetches the bytes (a path under the service's base URL). */
  url?: string;
}

/** Binary parts larger than this many bytes (decoded) are stored as blobs, not inlined in the record. */
export const DEFAULT_BLOB_THRESHOLD = 16 * 1024;

/** Where a block keeps its base64 bytes: `data` of image/audio, `resource.blob` of an embedded resource. */
export function base64Of(block: ContentBlock): string | undefined {
  if ((block.type === 'image' || block.type === 'audio') && typeof block['data'] === 'string') return block['data'];
  const resource = block['resource'];
  if (block.type === 'resource' && typeof resource === 'object' && resource !== null && typeof (resource as Record<string, unknown>)['blob'] === 'string') {
    return (resource as Record<string, unknown>)['blob'] as string;
  }
  return undefined;
}

const isBlobRef = (v: unknown): v is BlobRef => typeof v === 'object' && v !== null && typeof (v as BlobRef).sha256 === 'string' && typeof (v as BlobRef).size === 'number';

/** The `switchyard/blob` reference a stored block carries in place of its bytes, if any. */
export function blobRefOf(block: ContentBlock): BlobRef | undefined {
  const holder = block.type === 'resource' ? (block['resource'] as Record<string, unknown> | undefined) : block;
  const ref = holder?.['_blob'];
  return isBlobRef(ref) ? ref : undefined;
}

/** Decoded bytes of every binary part, inline or stored as a blob: what the yield counts as binary material. */
export function binaryBytes(content: readonly ContentBlock[]): number {
  let total = 0;
  for (const block of content) {
    const ref = blobRefOf(block);
    if (ref) total += ref.size;
    else {
      const data = base64Of(block);
      if (data !== undefined) total += Buffer.byteLength(data, 'base64');
    }
  }
  return total;
}

/** The text of a content list's text blocks, joined by newlines. */
export const textOf = (content: readonly ContentBlock[]): string =>
  content.filter((b) => b.type === 'text' && typeof b['text'] === 'string').map((b) => b['text'] as string).join('\n');

/** Every blob a record's content names (to check a blob request against the invocation). */
export const blobRefsOf = (content: readonly ContentBlock[] | undefined): BlobRef[] => (content ?? []).map(blobRefOf).filter((r): r is BlobRef => r !== undefined);
