// Filling a form its author certified with DocMDP P=2 or 3 (ISO 32000-1 § 12.8.2.2, Table 254: filling
// in forms and signing are the changes allowed; issue 33 › 6). Nothing is drawn into page content:
// each value becomes its field's /V with widget appearances, and a signature's picture the appearance
// of the signature field it is signed into.
import {
  PDFCheckBox,
  PDFDict,
  PDFDropdown,
  PDFHexString,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFTextField,
  degrees,
  drawImage,
  drawText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFDocument,
  type PDFField,
  type PDFOperator,
  PDFRef,
} from 'pdf-lib';
import type { CertifiedForm } from '../../db/schema/index';
import type { DocumentFonts } from './fonts';
import { fitText, type FieldStamp, type UndrawnReason, type UndrawnValue } from './stamp';
import type { MessageKey, MessageValues } from '../../shared/i18n/translator';

const INK = rgb(0.05, 0.1, 0.3);
const PDF_V = PDFName.of('V');
const deg0 = degrees(0);

type FormFieldType = CertifiedForm['fields'][number]['type'];

function formFieldType(field: PDFField): FormFieldType | undefined {
  if (field instanceof PDFTextField) return 'text';
  if (field instanceof PDFCheckBox) return 'checkbox';
  if (field instanceof PDFRadioGroup) return 'radio';
  if (field instanceof PDFDropdown || field instanceof PDFOptionList) return 'select';
  if (field instanceof PDFSignature) return 'signature';
  return undefined; // push buttons carry no value
}

/** The certified form's own fields, by the names template fields import them under (document-fields.ts). */
export function certifiedFormFields(pdf: PDFDocument): CertifiedForm['fields'] {
  let fields: PDFField[];
  try {
    fields = pdf.getForm().getFields();
  } catch {
    return [];
  }
  return fields.flatMap((field) => {
    const type = formFieldType(field);
    // A signature field already signed takes no value (the certification's own).
    if (type === 'signature' && field.acroField.dict.has(PDF_V)) return [];
    const name = field.getName().trim();
    return type && name ? [{ name, type }] : [];
  });
}

/** A signature field of the form that a value filled: where a signature goes, with the picture it shows. */
export type SignatureTarget = { field: PDFRef; widget: PDFRef; appearance: PDFRef; name: string };

export type FormFilling = {
  /** Objects changed in place (fields and widgets), for the incremental update. */
  touched: PDFRef[];
  signatures: SignatureTarget[];
  undrawn: UndrawnValue[];
};

/** Why a value was not written into the form: in English (the trail) and as the audit page's sentence. */
type FormProblem = { reason: string; why: UndrawnReason };

function formProblem(reason: string, key: MessageKey, values?: MessageValues): FormProblem {
  return { reason, why: { key, values } };
}

/** A signature's picture (a drawn image or a typed name) as a form XObject sized to the widget. */
async function signatureAppearance(
  pdf: PDFDocument,
  stamp: FieldStamp,
  size: { width: number; height: number },
  fonts: DocumentFonts,
): Promise<PDFRef | FormProblem> {
  const { value } = stamp;
  let operators: PDFOperator[];
  let resources: PDFDict;
  if (value.kind === 'image') {
    let image;
    try {
      image = value.format === 'png' ? await pdf.embedPng(value.bytes) : await pdf.embedJpg(value.bytes);
    } catch (error) {
      const detail = error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
      return formProblem(`the image could not be decoded (${detail})`, 'audit.undrawn.undecodable', { detail });
    }
    const scale = Math.min(size.width / image.width, size.height / image.height);
    const [width, height] = [image.width * scale, image.height * scale];
    const placed = { x: (size.width - width) / 2, y: (size.height - height) / 2, width, height };
    operators = [pushGraphicsState(), ...drawImage('Im0', { ...placed, rotate: deg0, xSkew: deg0, ySkew: deg0 }), popGraphicsState()];
    resources = pdf.context.obj({ XObject: { Im0: image.ref } });
  } else if (value.kind === 'text') {
    const { font, text } = await fonts.forText(value.text.trim(), stamp.typed ? 'oblique' : 'regular');
    const { size: fontSize, lines } = fitText({ width: (line, size) => font.widthOfTextAtSize(line, size) }, text, {
      width: size.width - 4,
      height: size.height,
    });
    let y = (size.height + lines.length * fontSize * 1.15) / 2 - fontSize * 0.95;
    operators = [pushGraphicsState()];
    for (const line of lines) {
      operators.push(
        ...drawText(font.encodeText(line), { color: INK, font: 'F0', size: fontSize, x: 2, y, rotate: deg0, xSkew: deg0, ySkew: deg0 }),
      );
      y -= fontSize * 1.15;
    }
    operators.push(popGraphicsState());
    resources = pdf.context.obj({ Font: { F0: font.ref } });
  } else {
    return formProblem('a signature field shows a signature or a typed name only', 'audit.undrawn.form_signature_only');
  }
  const stream = pdf.context.formXObject(operators, { BBox: [0, 0, size.width, size.height], Resources: resources });
  return pdf.context.register(stream);
}

/** Writes `stamp`'s value into a value field; returns why not when it cannot be written. */
async function fillValue(field: PDFField, stamp: FieldStamp, fonts: DocumentFonts): Promise<FormProblem | null> {
  const { value } = stamp;
  const text = value.kind === 'text' || value.kind === 'cells' ? value.text.trim() : undefined;
  if (field instanceof PDFCheckBox) {
    if (value.kind !== 'check') return formProblem('a checkbox takes a tick only', 'audit.undrawn.form_tick_only');
    if (value.checked) field.check();
    else field.uncheck();
  } else if (field instanceof PDFRadioGroup) {
    if (text === undefined || !field.getOptions().includes(text)) {
      return formProblem(`"${text ?? ''}" is not one of the field's options`, 'audit.undrawn.form_not_option', { value: text ?? '' });
    }
    field.select(text);
  } else if (field instanceof PDFTextField || field instanceof PDFDropdown || field instanceof PDFOptionList) {
    if (text === undefined)
      return formProblem('a picture cannot be written into a text or choice field', 'audit.undrawn.form_picture_in_text');
    const { font, text: printable } = await fonts.forText(text);
    if (field instanceof PDFTextField) {
      // The value itself, not setText: that also clears the field's rich-text flag, rewriting its /Ff.
      const max = field.getMaxLength();
      field.acroField.setValue(PDFHexString.fromText(max !== undefined ? printable.slice(0, max) : printable));
    } else {
      field.select(printable, field instanceof PDFDropdown && field.isEditable());
    }
    field.updateAppearances(font);
    return null;
  } else {
    return formProblem('the form field carries no value', 'audit.undrawn.form_no_value');
  }
  // A tick or a choice shows through the widget's existing on-state appearance; one without is drawn.
  if (field.needsAppearancesUpdate()) field.defaultUpdateAppearances();
  return null;
}

/**
 * Writes each field's value into the certified form: fields by name, values as /V with appearances;
 * signature fields are not signed here but returned with their picture, for the signature that goes
 * into each. A value that cannot be written is reported like a picture that cannot be drawn.
 */
export async function fillCertifiedForm(pdf: PDFDocument, stamps: readonly FieldStamp[], fonts: DocumentFonts): Promise<FormFilling> {
  const form = pdf.getForm();
  const touched = new Map<number, PDFRef>();
  const touch = (ref: PDFRef | undefined) => ref && touched.set(ref.objectNumber, ref);
  const filling: FormFilling = { touched: [], signatures: [], undrawn: [] };
  const seen = new Set<string>();
  for (const stamp of stamps) {
    const name = stamp.field ?? '';
    // A field's areas all carry the same value: it is written once.
    if (seen.has(name)) continue;
    seen.add(name);
    const field = form.getFieldMaybe(name);
    const widgets = field?.acroField.getWidgets() ?? [];
    const widgetRef = widgets[0] && pdf.context.getObjectRef(widgets[0].dict);
    let problem: FormProblem | null;
    if (!field) {
      problem = formProblem('the certified form has no field of that name', 'audit.undrawn.form_no_field');
    } else if (field instanceof PDFSignature) {
      if (!widgetRef) problem = formProblem('the signature field has no widget to sign into', 'audit.undrawn.form_no_widget');
      else if (field.acroField.dict.has(PDF_V))
        problem = formProblem('the signature field is signed already', 'audit.undrawn.form_signed_already');
      else {
        const rect = widgets[0].getRectangle();
        const appearance = await signatureAppearance(pdf, stamp, rect, fonts);
        problem = appearance instanceof PDFRef ? null : appearance;
        if (appearance instanceof PDFRef) filling.signatures.push({ field: field.ref, widget: widgetRef, appearance, name });
      }
    } else {
      problem = await fillValue(field, stamp, fonts);
      touch(field.ref);
      for (const widget of widgets) touch(pdf.context.getObjectRef(widget.dict));
    }
    if (problem) filling.undrawn.push({ field: name || 'unnamed field', page: stamp.area.page, ...problem });
  }
  filling.touched = [...touched.values()];
  return filling;
}
