// The signing form's embed script (/embed/v1/form.js, legacy /js/form.js; bundled by
// scripts/vendor-assets.mjs): our <signing-form> and DocuSeal's <docuseal-form>.
import './signing-form-element';
import './docuseal-form-element';
