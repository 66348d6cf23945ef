// The sealed documents as one zip, for downloads of several files (signing page, API `separate=true`).
import { zipSync } from 'fflate';

/** A zip of the sealed PDFs, stored uncompressed (PDF streams are compressed already). */
export function zipSealedDocuments(files: { filename: string; bytes: Uint8Array }[]): Uint8Array {
  const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const file of files) {
    let name = file.filename;
    for (let n = 2; name in entries; n += 1) name = file.filename.replace(/(\.pdf)?$/i, ` (${n}).pdf`);
    entries[name] = [file.bytes, { level: 0 }];
  }
  return zipSync(entries);
}
