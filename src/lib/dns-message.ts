// DNS messages in wire format (RFC 1035 § 4), as DNS-over-HTTPS carries them (RFC 8484): one question
// out, the answer section's A, AAAA, CNAME and TXT records back. Nothing else of DNS is needed here.
import { toBase64Url } from './base64';

export const DNS_TYPE = { A: 1, CNAME: 5, TXT: 16, AAAA: 28 } as const;
export type QueryType = typeof DNS_TYPE.A | typeof DNS_TYPE.AAAA | typeof DNS_TYPE.TXT;

/** RCODE values (RFC 1035 § 4.1.1) the callers tell apart. */
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

export type AnswerRecord =
  | { name: string; type: 'A' | 'AAAA'; address: string; ttl: number }
  | { name: string; type: 'CNAME'; target: string; ttl: number }
  /** One TXT record: its character-strings joined, as RFC 7208 § 3.3 reads a record split into several. */
  | { name: string; type: 'TXT'; text: string; ttl: number };

export type DnsResponse = { id: number; rcode: number; truncated: boolean; answers: AnswerRecord[] };

export class DnsFormatError extends Error {
  override name = 'DnsFormatError';
}

/** The labels of a host name, or null when it cannot be a DNS name (RFC 1035 § 2.3.4: 63 per label, 253 in all). */
export function dnsLabels(hostname: string): string[] | null {
  const name = hostname.replace(/\.$/, '');
  if (!name || name.length > 253) return null;
  const labels = name.split('.');
  const encoder = new TextEncoder();
  return labels.every((label) => label.length > 0 && encoder.encode(label).length <= 63) ? labels : null;
}

/**
 * A recursive query for `hostname`. The id is 0, as RFC 8484 § 4.1 recommends, so HTTP caches can share
 * answers; nothing is matched on it because each HTTP exchange carries exactly one question.
 */
export function encodeQuery(hostname: string, type: QueryType): Uint8Array {
  const labels = dnsLabels(hostname);
  if (!labels) throw new DnsFormatError(`${hostname} is not a valid DNS name`);
  const encoder = new TextEncoder();
  const bytes: number[] = [0, 0, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]; // id 0, RD, QDCOUNT 1
  for (const label of labels) {
    const encoded = encoder.encode(label.toLowerCase());
    bytes.push(encoded.length, ...encoded);
  }
  bytes.push(0, type >> 8, type & 0xff, 0, 1); // root, QTYPE, QCLASS IN
  return new Uint8Array(bytes);
}

/** base64url without padding, the form of the `dns` query parameter (RFC 8484 § 4.1). */
export function base64UrlEncode(bytes: Uint8Array): string {
  return toBase64Url(bytes);
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public offset = 0,
  ) {}

  need(n: number, at = this.offset) {
    if (at + n > this.bytes.length) throw new DnsFormatError('the DNS message is truncated');
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.offset++];
  }

  u16(): number {
    this.need(2);
    const value = (this.bytes[this.offset] << 8) | this.bytes[this.offset + 1];
    this.offset += 2;
    return value;
  }

  u32(): number {
    return this.u16() * 0x10000 + this.u16();
  }

  /** A possibly compressed name (RFC 1035 § 4.1.4); pointers may only go backwards, so it ends. */
  name(): string {
    const labels: string[] = [];
    let at = this.offset;
    let resumeAt: number | null = null;
    let limit = at;
    for (;;) {
      this.need(1, at);
      const length = this.bytes[at];
      if ((length & 0xc0) === 0xc0) {
        this.need(2, at);
        const pointer = ((length & 0x3f) << 8) | this.bytes[at + 1];
        if (pointer >= limit) throw new DnsFormatError('the DNS message has a forward compression pointer');
        resumeAt ??= at + 2;
        limit = pointer;
        at = pointer;
        continue;
      }
      if (length & 0xc0) throw new DnsFormatError('the DNS message has an unknown label type');
      if (length === 0) {
        at += 1;
        break;
      }
      this.need(1 + length, at);
      labels.push(new TextDecoder().decode(this.bytes.subarray(at + 1, at + 1 + length)));
      at += 1 + length;
    }
    this.offset = resumeAt ?? at;
    return labels.join('.').toLowerCase();
  }
}

function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

/** The character-strings of a TXT record's RDATA (RFC 1035 § 3.3.14), joined. */
function txtText(rdata: Uint8Array): string {
  const parts: Uint8Array[] = [];
  let at = 0;
  while (at < rdata.length) {
    const length = rdata[at];
    if (at + 1 + length > rdata.length) throw new DnsFormatError('a TXT record is truncated');
    parts.push(rdata.subarray(at + 1, at + 1 + length));
    at += 1 + length;
  }
  return parts.map((part) => new TextDecoder().decode(part)).join('');
}

/** Reads a response: its RCODE and the answer section's A, AAAA, CNAME and TXT records (others are skipped). */
export function decodeResponse(bytes: Uint8Array): DnsResponse {
  const reader = new Reader(bytes);
  const id = reader.u16();
  const flags = reader.u16();
  if (!(flags & 0x8000)) throw new DnsFormatError('the DNS message is not a response');
  const questions = reader.u16();
  const answerCount = reader.u16();
  reader.u16(); // NSCOUNT
  reader.u16(); // ARCOUNT
  for (let i = 0; i < questions; i++) {
    reader.name();
    reader.offset += 4;
  }
  const answers: AnswerRecord[] = [];
  for (let i = 0; i < answerCount; i++) {
    const name = reader.name();
    const type = reader.u16();
    const klass = reader.u16();
    const ttl = reader.u32();
    const length = reader.u16();
    reader.need(length);
    const start = reader.offset;
    if (klass === 1 && type === DNS_TYPE.A && length === 4) {
      answers.push({ name, type: 'A', address: Array.from(bytes.subarray(start, start + 4)).join('.'), ttl });
    } else if (klass === 1 && type === DNS_TYPE.AAAA && length === 16) {
      answers.push({ name, type: 'AAAA', address: ipv6Text(bytes.subarray(start, start + 16)), ttl });
    } else if (klass === 1 && type === DNS_TYPE.CNAME) {
      answers.push({ name, type: 'CNAME', target: reader.name(), ttl });
    } else if (klass === 1 && type === DNS_TYPE.TXT) {
      answers.push({ name, type: 'TXT', text: txtText(bytes.subarray(start, start + length)), ttl });
    }
    reader.offset = start + length;
  }
  return { id, rcode: flags & 0x0f, truncated: Boolean(flags & 0x0200), answers };
}
