// DocuSeal's embed events from our frames' messages (src/browser/docuseal-events.ts): the names and the
// `detail` `@docuseal/react`'s DocusealForm and DocusealBuilder hand their callbacks.
import { describe, expect, it } from 'vitest';
import { docusealBuilderEvent, docusealFormEvent } from '../../src/browser/docuseal-events';

const submitter = {
  id: 7,
  submission_id: 42,
  email: 'ada@example.com',
  status: 'completed',
  role: 'Client',
  values: [{ field: 'Full name', value: 'Ada Lovelace' }],
  submission: {
    id: 42,
    status: 'pending',
    url: 'https://sign.example/api/submissions/42',
    combined_document_url: null,
    audit_log_url: null,
  },
  template: { id: 'tpl_1', name: 'Contract' },
};
const message = { submission_id: 42, submitter_id: 7, slug: 'abc', status: 'completed', submission_status: 'pending', submitter };

describe('docusealFormEvent', () => {
  it('dispatches completed, declined and load under their own names with the submitter as detail', () => {
    for (const name of ['completed', 'declined', 'load']) expect(docusealFormEvent(name, message)).toEqual({ name, detail: submitter });
  });

  it('drops the page’s messages DocuSeal has no event for', () => {
    expect(docusealFormEvent('expired', message)).toBeNull();
    expect(docusealFormEvent('resize', message)).toBeNull();
  });

  it('names the submitter by the ids the message carries when the page sent no submitter', () => {
    const { submitter: _omitted, ...bare } = message;
    expect(docusealFormEvent('completed', bare)?.detail).toEqual({ id: 7, submission_id: 42, slug: 'abc', status: 'completed' });
  });
});

describe('docusealBuilderEvent', () => {
  it('dispatches the builder’s saved as DocuSeal’s save with the template id as id', () => {
    const fields = [{ uuid: 'f1', name: 'Full name' }];
    expect(docusealBuilderEvent('saved', { template_id: 'tpl_1', version: 3, name: 'Contract', fields, submitters: [] })).toEqual({
      name: 'save',
      detail: { id: 'tpl_1', version: 3, name: 'Contract', fields, submitters: [] },
    });
  });

  it('dispatches load with the template id and drops what DocuSeal does not know', () => {
    expect(docusealBuilderEvent('load', { template_id: 'tpl_1' })).toEqual({ name: 'load', detail: { id: 'tpl_1' } });
    expect(docusealBuilderEvent('resize', { template_id: 'tpl_1', height: 10 })).toBeNull();
  });
});
