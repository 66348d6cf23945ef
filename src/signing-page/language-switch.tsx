// The signer's language switch (issue 31 › 2): a labelled select in a GET form, so it works without the
// page's script too; the chosen language is kept for this signer in a cookie (signing.handlers.tsx).
import { autonym, LOCALES, type Locale } from '../shared/i18n/locales';

export function LanguageSwitch(props: { locale: Locale; label: string; change: string }) {
  return (
    <form class="language" method="get" id="language-form">
      <label for="language-select">{props.label}</label>
      <select id="language-select" name="lang">
        {LOCALES.map((l) => (
          <option value={l} lang={l} selected={l === props.locale}>
            {autonym(l)}
          </option>
        ))}
      </select>
      <button type="submit" class="secondary" id="language-change">
        {props.change}
      </button>
    </form>
  );
}
