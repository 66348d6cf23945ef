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
`;
