// Why a value was not written into a certified form (issue 33 › 6) is kept in English for the trail and
// as a catalog sentence, so the audit page says it in its own language (issue 31 › 1).
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { fillCertifiedForm } from '../../src/services/pdf/certified-form';
import { DocumentFonts } from '../../src/services/pdf/fonts';
import type { FieldStamp } from '../../src/services/pdf/stamp';
import { translatorFor } from '../../src/lib/i18n/catalogs';

async function formWithFields() {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([400, 400]);
  const form = pdf.getForm();
  form.createTextField('Name').addToPage(page, { x: 20, y: 300, width: 200, height: 20 });
  form.createCheckBox('Agree').addToPage(page, { x: 20, y: 250, width: 20, height: 20 });
  const plan = form.createRadioGroup('Plan');
  plan.addOptionToPage('Basic', page, { x: 20, y: 200, width: 20, height: 20 });
  plan.addOptionToPage('Pro', page, { x: 60, y: 200, width: 20, height: 20 });
  return pdf;
}

const area = { x: 0.1, y: 0.1, w: 0.3, h: 0.05, page: 1, attachment_uuid: 'doc' };
const stamp = (field: string, value: FieldStamp['value']): FieldStamp => ({ area, field, value }) as FieldStamp;

describe('values a certified form cannot take', () => {
  it('says why in English and with the catalog sentence the audit page words in its language', async () => {
    const pdf = await formWithFields();
    const filling = await fillCertifiedForm(
      pdf,
      [
        stamp('Missing', { kind: 'text', text: 'x' }),
        stamp('Agree', { kind: 'text', text: 'yes' }),
        stamp('Plan', { kind: 'text', text: 'Gold' }),
        stamp('Name', { kind: 'image', format: 'png', bytes: new Uint8Array([1, 2, 3]) }),
      ],
      new DocumentFonts(pdf),
    );
    expect(filling.undrawn.map((u) => [u.field, u.reason, u.why])).toEqual([
      ['Missing', 'the certified form has no field of that name', { key: 'audit.undrawn.form_no_field' }],
      ['Agree', 'a checkbox takes a tick only', { key: 'audit.undrawn.form_tick_only' }],
      ['Plan', '"Gold" is not one of the field\'s options', { key: 'audit.undrawn.form_not_option', values: { value: 'Gold' } }],
      ['Name', 'a picture cannot be written into a text or choice field', { key: 'audit.undrawn.form_picture_in_text' }],
    ]);
    const t = translatorFor('de');
    expect(t(filling.undrawn[2].why!.key, filling.undrawn[2].why!.values)).toBe('„Gold“ ist keine der Optionen des Felds');
  });
});
