// The template builder's embed script (/embed/v1/builder.js, legacy /js/builder.js; bundled by
// scripts/vendor-assets.mjs): our <template-builder> and DocuSeal's <docuseal-builder>.
import './template-builder-element';
import './docuseal-builder-element';
