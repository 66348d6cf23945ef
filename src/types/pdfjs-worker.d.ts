// pdf.js ships no types for its worker module; field detection only hands it to pdf.js (page-layout.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
