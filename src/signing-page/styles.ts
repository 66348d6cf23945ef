// The signing page's stylesheet: mobile first, documents full width, fields absolutely placed on pages.
// Built from the design tokens the emails share (src/lib/design-tokens.ts); the brand colours arrive as
// custom properties from the layout (--primary, --on-primary, --primary-hover, --accent, --header,
// --on-header), already adjusted to 4.5:1 contrast. Every control is at least 44 px tall.
import { FONT_STACK, LEADING, NEUTRAL, RADIUS, SPACE, STATUS, TOUCH_TARGET, TYPE } from '../lib/design-tokens';

const TOKENS = `:root{--text:${NEUTRAL.text};--muted:${NEUTRAL.muted};--border:${NEUTRAL.border};--divider:${NEUTRAL.divider};--surface:${NEUTRAL.surface};--background:${NEUTRAL.canvas};--subtle:${NEUTRAL.subtle};--subtle-hover:${NEUTRAL.subtleHover};--error:${STATUS.error};--error-surface:${STATUS.errorSurface};--success:${STATUS.success};--success-surface:${STATUS.successSurface};--radius:${RADIUS.control}px;--radius-card:${RADIUS.card}px;--target:${TOUCH_TARGET}px}`;

export const SIGNING_CSS = `${TOKENS}
*{box-sizing:border-box}body{margin:0;font:${TYPE.body}px/${LEADING.body} ${FONT_STACK};color:var(--text);background:var(--background);-webkit-text-size-adjust:100%}
.card h1:first-child,.card h2:first-child{margin-top:0}h1{font-size:${TYPE.title}px;line-height:${LEADING.heading};margin:0 0 ${SPACE[3]}px}h2{font-size:${TYPE.lead}px;line-height:${LEADING.heading};margin:${SPACE[5]}px 0 ${SPACE[2]}px}p{margin:0 0 ${SPACE[3]}px}
a{color:var(--accent)}a:hover{text-decoration-thickness:2px}
.brand{display:flex;flex-wrap:wrap;gap:${SPACE[3]}px;align-items:center;min-height:56px;padding:${SPACE[2]}px ${SPACE[4]}px;background:var(--header);color:var(--on-header)}
.brand .logo{max-height:32px;max-width:40vw}.brand .title{font-weight:600;font-size:${TYPE.lead}px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0;flex:1 1 8em}
main{max-width:980px;margin:0 auto;padding:${SPACE[3]}px}
.card{background:var(--surface);border-radius:var(--radius-card);padding:${SPACE[5]}px ${SPACE[4]}px;margin:${SPACE[3]}px 0;box-shadow:0 1px 2px rgba(17,24,39,.06),0 1px 3px rgba(17,24,39,.1)}
@media (min-width:600px){.card{padding:${SPACE[5]}px}main{padding:${SPACE[4]}px}}
button,.button{display:inline-flex;align-items:center;justify-content:center;gap:${SPACE[2]}px;min-height:var(--target);min-width:var(--target);padding:${SPACE[2]}px ${SPACE[4]}px;border:2px solid transparent;border-radius:var(--radius);background:var(--primary);color:var(--on-primary);font:inherit;font-weight:600;line-height:1.25;text-align:center;text-decoration:none;cursor:pointer;transition:background-color .15s}
button:hover,.button:hover{background:var(--primary-hover)}
button.secondary{background:var(--subtle);color:var(--text)}button.secondary:hover{background:var(--subtle-hover)}
button[aria-pressed=true],.tabs button[aria-selected=true]{background:var(--surface);color:var(--accent);border-color:var(--accent)}
button:disabled,button[aria-disabled=true]{background:var(--subtle);color:var(--muted);cursor:not-allowed}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
input,select,textarea{font:inherit;color:var(--text);background:var(--surface);min-height:var(--target);padding:${SPACE[2]}px ${SPACE[3]}px;border:1px solid var(--border);border-radius:var(--radius);width:100%}
textarea{min-height:96px}input:hover,select:hover,textarea:hover{border-color:var(--text)}
input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid var(--accent);outline-offset:0;border-color:var(--accent)}
input:disabled,select:disabled,textarea:disabled{background:var(--background);color:var(--muted)}
input[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]{border:2px solid var(--error);background:var(--error-surface)}
input[type=checkbox],input[type=radio]{width:24px;height:24px;min-height:0;padding:0;accent-color:var(--accent)}
label{display:block;font-weight:600;margin:${SPACE[3]}px 0 ${SPACE[1]}px}
.documents{display:flex;flex-direction:column;gap:${SPACE[3]}px}
.page{position:relative;background:#fff;box-shadow:0 1px 3px rgba(17,24,39,.2);margin:0 auto;width:100%}
.page canvas,.page .page-image{display:block;width:100%;height:auto}
.area{position:absolute;border:2px dashed var(--accent);background:rgba(255,255,255,.35);border-radius:${RADIUS.small}px;cursor:pointer;overflow:hidden;font-size:12px;display:flex;align-items:center;padding:0 2px}
.area:hover{background:rgba(255,255,255,.6);border-style:solid}
.area.filled{border:2px solid var(--success);background:rgba(240,253,244,.55)}.area.current{outline:3px solid var(--accent);outline-offset:2px;background:rgba(255,255,255,.7)}.area.hidden{display:none}
.area img{max-width:100%;max-height:100%}
.stepper{position:sticky;bottom:0;background:var(--surface);border-top:1px solid var(--divider);padding:${SPACE[3]}px;display:flex;flex-direction:column;gap:${SPACE[2]}px;z-index:5;box-shadow:0 -2px 8px rgba(17,24,39,.08)}
.nav-branded_bar .stepper{position:sticky;top:0;bottom:auto;background:var(--header);color:var(--on-header)}
.stepper .row{display:flex;gap:${SPACE[2]}px;align-items:center;justify-content:space-between;flex-wrap:wrap}
.error{color:var(--error);font-weight:600;min-height:1.5em;margin:${SPACE[2]}px 0 0}.error:empty{font-weight:400}
.muted{color:var(--muted);font-size:${TYPE.note}px}
.payment-status{color:var(--success);font-weight:600}.payment-status.unpaid{color:var(--error)}.payment-amount{font-size:${TYPE.lead}px;font-weight:600}
.readonly{min-height:var(--target);padding:${SPACE[2]}px ${SPACE[3]}px;background:var(--background);border-radius:var(--radius)}
.sigpad{width:100%;height:160px;border:1px solid var(--border);border-radius:var(--radius);touch-action:none;background:var(--surface)}
.tabs{display:flex;gap:${SPACE[1]}px}.tabs button{flex:1}
.carousel{position:fixed;inset:0;background:rgba(17,24,39,.55);display:flex;align-items:center;justify-content:center;z-index:10;padding:${SPACE[3]}px}
.carousel .card{width:min(560px,100%);max-height:100%;overflow:auto}
.powered{text-align:center;color:var(--muted);font-size:${TYPE.small}px;padding:${SPACE[4]}px}
.actions{display:flex;gap:${SPACE[2]}px;flex-wrap:wrap;align-items:center;margin-top:${SPACE[4]}px}
.actions a:not(.button){display:inline-flex;align-items:center;min-height:var(--target);padding:0 ${SPACE[2]}px}
.consent{display:flex;gap:${SPACE[3]}px;align-items:flex-start;margin-top:${SPACE[4]}px;min-height:var(--target)}.consent input{flex:none;margin:${SPACE[1]}px 0 0}.consent label{margin:0;font-weight:400}
#disclosure h2{font-size:${TYPE.body}px;margin:${SPACE[4]}px 0 ${SPACE[1]}px}#disclosure summary{cursor:pointer;color:var(--accent);font-weight:600;min-height:var(--target);display:flex;align-items:center}
.language{display:flex;gap:${SPACE[2]}px;align-items:center;margin-inline-start:auto}.language label{margin:0;font-weight:400;font-size:${TYPE.note}px}.language select{width:auto;padding:${SPACE[1]}px ${SPACE[2]}px}
.language button{font-size:${TYPE.note}px}
[dir=rtl] .page,[dir=rtl] .page canvas,[dir=rtl] .page img{direction:ltr}
@media (min-width:900px){.stepper{max-width:${980 - 2 * SPACE[4]}px;margin:0 auto;border-radius:var(--radius-card) var(--radius-card) 0 0}}
/* accessibility (issue 31 › 4, WCAG 2.2 AA): visible focus, the text layer under each page image, targets of
   24 px at least (44 px from the tokens above), reflow at 320 px and 200 % zoom, reduced motion, forced colours. */
:focus-visible{box-shadow:0 0 0 5px var(--surface)}
.brand :focus-visible,.nav-branded_bar .stepper :focus-visible{outline-color:var(--on-header);box-shadow:0 0 0 5px var(--header)}
#field-block:focus{outline:none}#field-block:focus-visible{outline:3px solid var(--accent)}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.page{container-type:inline-size}.page canvas,.page .page-image{position:relative;z-index:1}.area{z-index:2}
.text-layer{position:absolute;inset:0;z-index:0;overflow:hidden;color:transparent;forced-color-adjust:none;pointer-events:none}
.text-layer span{position:absolute;white-space:pre;line-height:1;overflow:hidden}
fieldset{border:0;padding:0;margin:0;min-width:0}legend{font-weight:600;margin:${SPACE[3]}px 0 ${SPACE[1]}px;padding:0}
.check{display:flex;gap:${SPACE[3]}px;align-items:center;min-height:var(--target)}.check label{margin:0}
input[type=checkbox],input[type=radio]{margin:0;flex:none}
.choices label{display:flex;gap:${SPACE[2]}px;align-items:center;min-height:var(--target);font-weight:400}
.tabs button[aria-pressed=true]{text-decoration:underline;text-underline-offset:4px}
.stepper{max-height:70vh;overflow-y:auto}
.language{flex-wrap:wrap}.language select{max-width:100%}
main,.card{overflow-wrap:anywhere}
/* In the branded bar the stepper takes the header colours: its grey and status texts would not read on
   them (the progress 1.2:1, an error 1.4:1 on a dark brand), so grey becomes the header text colour and a
   status sits on its own light surface, keeping its colour; read-only values keep theirs. */
.nav-branded_bar .stepper .muted{color:var(--on-header)}
.nav-branded_bar .stepper .readonly{color:var(--text)}
.nav-branded_bar .stepper .error:not(:empty),.nav-branded_bar .stepper .payment-status{background:var(--success-surface);padding:${SPACE[1]}px ${SPACE[2]}px;border-radius:var(--radius)}
.nav-branded_bar .stepper .error:not(:empty),.nav-branded_bar .stepper .payment-status.unpaid{background:var(--error-surface)}
@media (prefers-reduced-motion:reduce){*,::before,::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
@media (forced-colors:active){
.area{border-color:CanvasText;forced-color-adjust:auto}.area.current{outline:3px solid Highlight}.area.filled{border-color:Highlight}
button,.button{border:2px solid ButtonText}.tabs button[aria-pressed=true]{border-color:Highlight;outline:2px solid Highlight}
:focus-visible{outline:3px solid Highlight}.text-layer{color:transparent}
}
`;
