// The signing page's words in the signer's language: the page inlines its locale's `client.*` messages
// (src/lib/i18n/catalogs.ts › clientMessages), read once here; `t` formats them.
import { jsonData } from '../../browser/dom';
import { translator, type Catalog, type MessageKey, type MessageValues } from '../../shared/i18n/translator';
import type { FieldProblem } from '../../shared/field-values';

const data = jsonData<{ locale?: string; messages?: Catalog }>('signing-data');
const translate = translator(data?.locale ?? document.documentElement.lang ?? 'en', data?.messages ?? {});

export function t(key: MessageKey, values?: MessageValues): string {
  return translate(key, values);
}

/** A field value's refusal (src/shared/field-values.ts) in the signer's words. */
export function fieldProblem(problem: FieldProblem): string {
  return translate(problem.key, problem.values);
}
