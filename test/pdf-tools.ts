// Checks a PDF with pdfsig and qpdf through the local tools server (test/global/pdf-tools-server.ts).
import { env } from 'cloudflare:test';

type ToolResult = { code: number; output: string };
export type PdfCheck = { pdfsig: ToolResult; qpdf: ToolResult; text: ToolResult };

export async function checkPdf(bytes: Uint8Array): Promise<PdfCheck> {
  const res = await fetch(env.PDF_TOOLS_URL, { method: 'POST', body: bytes });
  if (!res.ok) throw new Error(`pdf tools server answered ${res.status}`);
  return res.json();
}
