// Zip downloads, streamed to the response as they are written (yazl); entries in the order given.
import type { Response } from 'express';
import yazl from 'yazl';

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

export function sendZip(res: Response, filename: string, entries: ZipEntry[]): void {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (!SAFE_NAME.test(e.name) || e.name.split('/').includes('..')) throw new Error(`unsafe zip entry name ${JSON.stringify(e.name)}`);
    const time = Number.isFinite(e.mtime.getTime()) && e.mtime.getTime() > ZIP_EPOCH ? e.mtime : new Date(ZIP_EPOCH);
    zip.addBuffer(Buffer.from(e.text, 'utf8'), e.name, { mtime: time, mode: 0o100644 });
  }
  zip.end();
  res.status(200).type('application/zip').attachment(filename);
  zip.outputStream.on('error', (err: Error) => res.destroy(err)).pipe(res);
}
