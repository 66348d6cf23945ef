// The shapes of event payloads' parts (spec › Events › Payload shapes): what payloads.ts and
// payment-payloads.ts build, and what the code that writes events hands them.
type Id = number;
/** Template ids in payloads are the public `tpl_…` string (decisions.md › Identity). */
type TemplateId = string;
type Nullable<T> = T | null;

export type PayloadDocument = {
  id: Id;
  /** signed_pdf or combined */
  document_type: string;
  filename: string;
  download_url: string;
  /** Present only when public document links are enabled (spec › Public document links). */
  url?: string;
  url_expires_at?: Nullable<string>;
};

export type PayloadSubmitter = {
  id: Id;
  uuid: string;
  email: string;
  name: string;
  role: string;
  status: string;
  external_id: Nullable<string>;
  /** The language given for the signer (BCP 47), or null (issue 31 › 2). */
  language: Nullable<string>;
  metadata: Record<string, unknown>;
  opened_at: Nullable<string>;
  completed_at: Nullable<string>;
  declined_at: Nullable<string>;
};

export type PayloadSubmissionRef = { id: Id; slug: string; status: string; template_id: TemplateId };
export type PayloadTemplateRef = { id: TemplateId; name: string };

export type PayloadSubmission = {
  id: Id;
  slug: string;
  status: string;
  created_at: string;
  completed_at: Nullable<string>;
  template_id: TemplateId;
  metadata: Record<string, unknown>;
  submitters: Pick<PayloadSubmitter, 'id' | 'uuid' | 'email' | 'name' | 'role' | 'status' | 'external_id' | 'language'>[];
  documents: PayloadDocument[];
};

export type PayloadTemplate = {
  id: TemplateId;
  name: string;
  slug: string;
  external_id: Nullable<string>;
  folder_name: Nullable<string>;
  source: string;
  created_at: string;
  updated_at: string;
  submitters: { uuid: string; name: string }[];
  field_count: number;
  document_count: number;
};

export type PayloadIdentity = { level: string; provider: string; method: string; verified_at: string };
