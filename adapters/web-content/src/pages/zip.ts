// Zip downloads: written by yazl in the order given, streamed to the first response while the
// bytes are kept, so later requests for the same content get the finished archive at once.
import type { Response } from 'express';
import yazl from 'yazl';
import { etagOf } from './memo.js';

export interface ZipEntry {
  /** A relative path of slug-safe segments: never absolute, never "..". */
  name: string;
  text: string;
  /** Entry time; archives stay byte-identical while the content does. */
  mtime: Date;
}

const SAFE_NAME = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*$/;
// The zip format cannot date anything before 1980.
const ZIP_EPOCH = Date.UTC(1980, 0, 2);

/** An archive being written: its stream for the first reader, its bytes once complete. */
export interface Archive {
  bytes: Promise<Buffer>;
  etag: Promise<string>;
  /** The live stream, taken by the first response only. */
  take(): NodeJS.ReadableStream | null;
}

export function writeZip(entries: ZipEntry[]): Archive {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (!SAFE_NAME.test(e.name)) throw new Error(`unsafe zip entry name ${JSON.stringify(e.name)}`);
    const time = Number.isFinite(e.mtime.getTime()) && e.mtime.getTime() > ZIP_EPOCH ? e.mtime : new Date(ZIP_EPOCH);
    zip.addBuffer(Buffer.from(e.text, 'utf8'), e.name, { mtime: time, mode: 0o100644 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
  bytes.catch(() => {}); // a failed build is reported to the response that streams it
  let stream: NodeJS.ReadableStream | null = zip.outputStream;
  const etag = bytes.then(etagOf);
  etag.catch(() => {});
  return {
    bytes,
    etag,
    take: () => {
      const s = stream;
      stream = null;
      return s;
    },
  };
}

export async function sendZip(res: Response, filename: string, archive: Archive): Promise<void> {
  res.status(200).type('application/zip').attachment(filename);
  const live = archive.take();
  if (live) {
    live.on('error', (err: Error) => res.destroy(err));
    live.pipe(res);
    return;
  }
  const [bytes, etag] = await Promise.all([archive.bytes, archive.etag]);
  // With the ETag set, Express answers 304 to a matching If-None-Match and hashes nothing.
  res.set('etag', etag).send(bytes);
}
