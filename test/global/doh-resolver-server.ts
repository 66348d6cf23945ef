// A local DNS-over-HTTPS resolver (RFC 8484, GET `?dns=` in wire format) for the webhook host checks.
// It answers from a table: a few fixed names, any other name with a public address (as the internet
// would for the example hosts the tests use), and `PUT /_control/<name>` {A, AAAA, CNAME, rcode}
// changes a name's answer mid-test (DNS rebinding; TXT records for custom domain ownership). Names are per test, so parallel files never collide.
import { createServer, type Server } from 'node:http';

export type DohRecord = { A?: string[]; AAAA?: string[]; CNAME?: string; TXT?: string[]; rcode?: number };

const PUBLIC_V4 = '93.184.216.34';

const FIXED: Record<string, DohRecord> = {
  'public.example': { A: [PUBLIC_V4] },
  'rebind.example': { A: ['10.0.0.1'] },
  'v6private.example': { AAAA: ['fd00::1'] },
  'dual.example': { A: [PUBLIC_V4], AAAA: ['fd00::2'] },
  'nowhere.example': { rcode: 3 },
  'servfail.example': { rcode: 2 },
  'cname-private.example': { CNAME: 'inside.example' },
  'inside.example': { A: ['10.1.2.3'] },
};

function ipv6Bytes(text: string): number[] {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function encodeName(name: string): number[] {
  return [...name.split('.').flatMap((label) => [label.length, ...Buffer.from(label)]), 0];
}

/** End of the question's name, so the question can be echoed back. */
function questionEnd(query: Buffer): number {
  let at = 12;
  while (query[at] !== 0) at += query[at] + 1;
  return at + 1 + 4;
}

function readName(query: Buffer): string {
  const labels: string[] = [];
  let at = 12;
  while (query[at] !== 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('latin1'));
    at += query[at] + 1;
  }
  return labels.join('.').toLowerCase();
}

/** A TXT value as character-strings of at most 255 bytes each (RFC 1035 § 3.3.14). */
function txtRdata(text: string): number[] {
  const bytes = [...Buffer.from(text)];
  const out: number[] = [];
  for (let at = 0; at < bytes.length || at === 0; at += 255) {
    const chunk = bytes.slice(at, at + 255);
    out.push(chunk.length, ...chunk);
    if (bytes.length === 0) break;
  }
  return out;
}

function rr(owner: number[], type: number, rdata: number[]): number[] {
  return [...owner, type >> 8, type & 0xff, 0, 1, 0, 0, 0, 30, rdata.length >> 8, rdata.length & 0xff, ...rdata];
}

export async function startDohResolverServer(): Promise<{ url: string; server: Server }> {
  const overrides = new Map<string, DohRecord>();
  const lookup = (name: string): DohRecord => overrides.get(name) ?? FIXED[name] ?? { A: [PUBLIC_V4] };

  function answer(query: Buffer): Buffer {
    const qname = readName(query);
    const end = questionEnd(query);
    const qtype = query.readUInt16BE(end - 4);
    const records: number[][] = [];
    // Follow CNAMEs as a recursive resolver does: the chain first, then the records at its end.
    let name = qname;
    let owner = [0xc0, 0x0c]; // compression pointer to the question's name
    let record = lookup(name);
    for (let hops = 0; record.CNAME && hops < 8; hops++) {
      records.push(rr(owner, 5, encodeName(record.CNAME)));
      name = record.CNAME;
      owner = encodeName(name);
      record = lookup(name);
    }
    const rcode = record.rcode ?? 0;
    if (rcode === 0 && qtype === 1) for (const a of record.A ?? []) records.push(rr(owner, 1, a.split('.').map(Number)));
    if (rcode === 0 && qtype === 28) for (const a of record.AAAA ?? []) records.push(rr(owner, 28, ipv6Bytes(a)));
    if (rcode === 0 && qtype === 16) for (const t of record.TXT ?? []) records.push(rr(owner, 16, txtRdata(t)));
    const header = [query[0], query[1], 0x81, 0x80 | rcode, 0, 1, records.length >> 8, records.length & 0xff, 0, 0, 0, 0];
    return Buffer.concat([Buffer.from(header), query.subarray(12, end), Buffer.from(records.flat())]);
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, kind, name] = url.pathname.split('/');
    if (kind === '_control' && name && req.method === 'PUT') {
      overrides.set(name.toLowerCase(), JSON.parse(Buffer.concat(chunks).toString('utf8')) as DohRecord);
      res.writeHead(204).end();
      return;
    }
    const dns = url.searchParams.get('dns');
    if (url.pathname !== '/dns-query' || req.method !== 'GET' || !dns) {
      res.writeHead(400).end('expected GET /dns-query?dns=');
      return;
    }
    const query = Buffer.from(dns, 'base64url');
    res.writeHead(200, { 'Content-Type': 'application/dns-message' }).end(answer(query));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('DoH resolver did not bind');
  return { url: `http://127.0.0.1:${address.port}/dns-query`, server };
}
