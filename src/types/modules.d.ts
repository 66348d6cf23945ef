// Binary files bundled as Data modules (wrangler.toml [[rules]]): their default export is the bytes.
declare module '*.ttf' {
  const bytes: ArrayBuffer;
  export default bytes;
}

// pdf.js's worker code, imported whole to run its "fake worker" on the Worker's own thread (src/services/pdf/pdfjs.ts).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
// docxtemplater's internal modules, used to give its loop module our `[[if:…]]…[[end]]` syntax
// (src/services/documents/docx.ts); the package declares only its main entry.
declare module 'docxtemplater/js/file-type-config.js' {
  const configs: { docx(): { baseModules: (() => unknown)[] } & Record<string, unknown> };
  export default configs;
}
declare module 'docxtemplater/js/module-wrapper.js' {
  export default function wrapper<T>(module: T): T;
}
declare module 'docxtemplater/js/modules/loop.js' {
  export default function createLoopModule(): { prefix: Record<string, unknown> };
}
