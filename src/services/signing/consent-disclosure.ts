// The electronic-records disclosure a signer accepts before signing (ESIGN Act 15 U.S.C. §7001(c),
// UETA §5; issue 18 › 5). Versioned: a change to the text is a new version with its own SHA-256, and
// the trail records which version (and hash) each signer accepted.

export type Disclosure = { version: string; title: string; sections: { heading: string; text: string }[] };

export const DISCLOSURE: Disclosure = {
  version: '2026-11-25',
  title: 'Consent to use electronic records and signatures',
  sections: [
    {
      heading: 'Electronic records and signatures',
      text: 'The sender asks you to receive this document and any notices about it electronically and to sign it electronically. Your electronic signature has the same legal effect as a handwritten one.',
    },
    {
      heading: 'Your right to a paper copy',
      text: 'You may ask the sender for a paper copy of this document at any time, free of charge, by writing to them at the email address the invitation came from. You can also download the signed document from this page once everyone has signed.',
    },
    {
      heading: 'Withdrawing your consent',
      text: 'You may withdraw this consent before you sign by declining the form on this page or by telling the sender. Withdrawing ends electronic signing of this document: the sender will then arrange to complete it on paper or another way. Withdrawal does not affect documents you already signed electronically.',
    },
    {
      heading: 'Hardware and software you need',
      text: 'A current web browser with JavaScript enabled (such as a recent Chrome, Edge, Firefox or Safari), an email account that can receive messages, and software that opens PDF files to view and keep your signed copy.',
    },
    {
      heading: 'Keeping your contact information up to date',
      text: 'If your email address changes before signing is finished, tell the sender at the address the invitation came from so that notices and your signed copy reach you.',
    },
  ],
};

/** SHA-256 (hex) of the disclosure text as shown: a test keeps it equal to disclosureSha256(DISCLOSURE). */
export const DISCLOSURE_SHA256 = 'ccc8dd915589d0e89dd25237260138efb2573f20645be13a87f1220daaee3d1c';

/** The text the hash covers: the title and every heading and paragraph, one per line, in order. */
export function disclosureText(disclosure: Disclosure): string {
  return [disclosure.title, ...disclosure.sections.flatMap((s) => [s.heading, s.text])].join('\n');
}

export async function disclosureSha256(disclosure: Disclosure): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(disclosureText(disclosure)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
