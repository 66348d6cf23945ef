// DocuSeal's <docuseal-builder> over our template builder (issue 32 › 3; docs/embedding.md › DocuSeal's
// components): what `@docuseal/react`'s DocusealBuilder renders after loading https://<host>/js/builder.js.
// It is <template-builder> with DocuSeal's element name and events: `data-token` is a builder embed token
// (POST /api/embed/token, resource_type template), every other DocuSeal attribute is ignored; the
// builder's `load` and `saved` are dispatched as DocuSeal's `load` and `save` (src/browser/docuseal-events.ts).
import { docusealBuilderEvent, type ElementEvent } from '../../browser/docuseal-events';
import { publishGlobals } from '../../browser/frame-host';
import { TemplateBuilderElement } from './template-builder-element';

export class DocusealBuilderElement extends TemplateBuilderElement {
  protected eventOf(name: string, data: Record<string, unknown>): ElementEvent | null {
    return docusealBuilderEvent(name, data);
  }
}

if (!customElements.get('docuseal-builder')) customElements.define('docuseal-builder', DocusealBuilderElement);
publishGlobals({ DocusealBuilderElement });
