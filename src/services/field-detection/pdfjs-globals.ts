// What pdf.js's display layer expects to find before it loads. Workers have no DOMMatrix, and pdf.js
// builds one at module load for canvas drawing, which detection never does: an inert stand-in is enough.
// Imported before pdf.js (page-layout.ts), so it is in place when pdf.js evaluates.
const scope = globalThis as { DOMMatrix?: unknown };
if (typeof scope.DOMMatrix === 'undefined') scope.DOMMatrix = class DOMMatrix {};
