// The signing page's stylesheet: mobile first, documents full width, fields absolutely placed on pages.
export const SIGNING_CSS = `
*{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--text,#111);background:var(--background,#f3f4f6)}
.brand{display:flex;gap:12px;align-items:center;padding:10px 16px;background:var(--header);color:#fff}
.brand .logo{max-height:32px}.brand .title{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
main{max-width:980px;margin:0 auto;padding:12px}
.card{background:#fff;border-radius:var(--radius,8px);padding:20px;margin:12px 0;box-shadow:0 1px 3px rgba(0,0,0,.1)}
button,.button{background:var(--primary);color:#fff;border:0;border-radius:var(--radius,6px);padding:10px 16px;font-size:16px;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#e5e7eb;color:#111}button:disabled{opacity:.5;cursor:default}
input,select,textarea{font:inherit;padding:8px;border:1px solid #9ca3af;border-radius:6px;width:100%}
label{display:block;font-weight:600;margin:8px 0 4px}
.documents{display:flex;flex-direction:column;gap:12px}
.page{position:relative;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.2);margin:0 auto;width:100%}
.page canvas,.page .page-image{display:block;width:100%;height:auto}
.area{position:absolute;border:2px dashed var(--primary);background:rgba(29,78,216,.08);border-radius:3px;cursor:pointer;overflow:hidden;font-size:12px;display:flex;align-items:center;padding:0 2px}
.area.filled{border-style:solid;background:rgba(22,163,74,.10)}.area.current{outline:3px solid var(--primary)}.area.hidden{display:none}
.area img{max-width:100%;max-height:100%}
.stepper{position:sticky;bottom:0;background:#fff;border-top:1px solid #d1d5db;padding:12px;display:flex;flex-direction:column;gap:8px;z-index:5}
.nav-branded_bar .stepper{position:sticky;top:0;bottom:auto;background:var(--header);color:#fff}
.stepper .row{display:flex;gap:8px;align-items:center;justify-content:space-between}
.error{color:#b91c1c;min-height:1.2em}.muted{color:#6b7280;font-size:14px}
.sigpad{width:100%;height:160px;border:1px solid #9ca3af;border-radius:6px;touch-action:none;background:#fff}
.tabs{display:flex;gap:4px}.tabs button{flex:1}
.carousel{position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:10}
.carousel .card{width:min(560px,94vw)}
.powered{text-align:center;color:#4b5563;font-size:13px;padding:16px}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin-top:12px}
.consent{display:flex;gap:10px;align-items:flex-start;margin-top:12px}.consent input{width:24px;height:24px;flex:none;margin:0}.consent label{margin:0}
#disclosure h2{font-size:16px;margin:14px 0 4px}#disclosure summary{cursor:pointer;color:var(--primary);font-weight:600;min-height:44px;display:flex;align-items:center}
.language{display:flex;gap:6px;align-items:center;margin-inline-start:auto}.language label{margin:0;font-weight:400;font-size:14px}.language select{width:auto;padding:4px}
.language button{padding:4px 10px;font-size:14px}.js .language button{display:none}
[dir=rtl] .page,[dir=rtl] .page canvas,[dir=rtl] .page img{direction:ltr}
@media (min-width:900px){.stepper{max-width:980px;margin:0 auto}}
/* accessibility (issue 31 › 4, WCAG 2.2 AA): visible focus, the text layer under each page image, targets of
   24 px at least, reflow at 320 px and 200 % zoom, reduced motion, forced colours. */
:focus-visible{outline:3px solid #1e3a8a;outline-offset:2px;box-shadow:0 0 0 5px #fff}
.brand :focus-visible,.nav-branded_bar .stepper :focus-visible{outline-color:#fff;box-shadow:0 0 0 5px #111}
.muted{color:#4b5563}#field-block:focus{outline:none}#field-block:focus-visible{outline:3px solid #1e3a8a}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.page{container-type:inline-size}.page canvas,.page .page-image{position:relative;z-index:1}.area{z-index:2}
.text-layer{position:absolute;inset:0;z-index:0;overflow:hidden;color:transparent;forced-color-adjust:none;pointer-events:none}
.text-layer span{position:absolute;white-space:pre;line-height:1;overflow:hidden}
fieldset{border:0;padding:0;margin:0;min-width:0}legend{font-weight:600;margin:8px 0 4px;padding:0}
.check{display:flex;gap:10px;align-items:center}.check label{margin:0}
input[type=checkbox],input[type=radio]{width:24px;height:24px;margin:0;flex:none;accent-color:var(--primary)}
.choices label{display:flex;gap:8px;align-items:center;min-height:32px;font-weight:400}
button,.button,select,input{min-height:24px}.language select,.language button{min-height:32px}
.tabs button[aria-pressed=true]{background:var(--primary);color:#fff;text-decoration:underline;text-underline-offset:4px}
.brand{flex-wrap:wrap}.stepper .row{flex-wrap:wrap}.stepper{max-height:70vh;overflow-y:auto}
.language{flex-wrap:wrap}.language select{max-width:100%}
main,.card{overflow-wrap:anywhere}
@media (prefers-reduced-motion:reduce){*,::before,::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
@media (forced-colors:active){
.area{border-color:CanvasText;forced-color-adjust:auto}.area.current{outline:3px solid Highlight}.area.filled{border-color:Highlight}
button,.button{border:2px solid ButtonText}.tabs button[aria-pressed=true]{border-color:Highlight;outline:2px solid Highlight}
:focus-visible{outline:3px solid Highlight}.text-layer{color:transparent}
}
`;
