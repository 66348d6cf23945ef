// Binary files bundled as Data modules (wrangler.toml [[rules]]): their default export is the bytes.
declare module '*.ttf' {
  const bytes: ArrayBuffer;
  export default bytes;
}

// pdf.js's worker code, imported whole to run its "fake worker" on the Worker's own thread (src/services/pdf/page-text.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
