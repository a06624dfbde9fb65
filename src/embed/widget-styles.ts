/**
 * The widget page's styles, put in by its script (the page's policy allows inline styles, as the app's does).
 * Light or dark as the visitor's system is; buttons are 44 px touch targets (design.md). `--accent` is the
 * owner's colour, `--on-accent` the text that reads on it (set by the script).
 */
export const WIDGET_STYLES = `
:root{color-scheme:light dark}
*{box-sizing:border-box}
html,body{height:100%;margin:0}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#18181b;background:#fff}
#botty-widget{display:flex;flex-direction:column;height:100%}
header{display:flex;align-items:center;gap:8px;padding:12px 12px 12px 16px;background:var(--accent);color:var(--on-accent)}
h1{flex:1;margin:0;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.close{width:44px;height:44px;border:0;border-radius:8px;background:transparent;color:inherit;font-size:24px;line-height:1;cursor:pointer}
.close:hover{background:rgba(127,127,127,.25)}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:10px;background:#fafafa}
.msg{max-width:85%;padding:8px 12px;border-radius:14px;overflow-wrap:anywhere}
.msg p,.msg ul,.msg ol,.msg pre{margin:0 0 6px}
.msg>:last-child{margin-bottom:0}
.msg ul,.msg ol{padding-left:20px}
.msg pre{overflow-x:auto;padding:8px;border-radius:8px;background:#f4f4f5;font-size:13px}
.msg code{font:13px ui-monospace,Menlo,Consolas,monospace}
.msg a{color:inherit;text-decoration:underline}
.msg .sources{margin:8px 0 0;padding:6px 0 0;border-top:1px solid #e4e4e7;list-style:none;font-size:13px;color:#52525b}
.sources li{margin-top:2px}
.sources .n{font-weight:600}
.consulted{margin-top:6px;font-size:13px;color:#52525b}
.consulted summary{cursor:pointer;min-height:24px}
.consulted .sources{border-top:0;margin-top:0}
.msg .support{margin:6px 0 0;font-size:12px;color:#52525b}
.unsupported{position:relative;margin:0 .1em;padding:0 .15em;border:0;border-bottom:1px dotted currentColor;background:none;color:#52525b;font:inherit;font-size:.75em;font-weight:600;line-height:1.2;vertical-align:super;cursor:pointer}
.unsupported::after{content:"";position:absolute;inset:-14px -12px}
.msg .unsupported-note{margin:6px 0 0;font-size:12px;color:#52525b}
.assistant{align-self:flex-start;background:#fff;border:1px solid #e4e4e7}
.user{align-self:flex-end;background:var(--accent);color:var(--on-accent)}
.starters{display:flex;flex-wrap:wrap;gap:8px;margin:0;padding:0;list-style:none}
.starters button{min-height:44px;padding:8px 14px;border:1px solid var(--accent);border-radius:22px;background:transparent;color:inherit;font:inherit;text-align:left;cursor:pointer}
.starters button:hover{background:rgba(127,127,127,.12)}
.pending:empty::after{content:"…";color:#71717a}
.alert{margin:0;padding:8px 16px;background:#fef2f2;color:#991b1b;font-size:14px;border-top:1px solid #fecaca}
form{display:flex;gap:8px;padding:12px;border-top:1px solid #e4e4e7;background:#fff}
textarea{flex:1;resize:none;min-height:44px;max-height:120px;padding:9px 12px;border:1px solid #d4d4d8;border-radius:10px;font:inherit;color:inherit}
.send{padding:0 16px;border:0;border-radius:10px;background:var(--accent);color:var(--on-accent);font:inherit;font-weight:600;cursor:pointer}
.send:disabled{opacity:.6;cursor:default}
:focus-visible{outline:2px solid #6d28d9;outline-offset:2px}
header :focus-visible{outline-color:currentColor}
@media (prefers-color-scheme:dark){
body{color:#fafafa;background:#18181b}
.log{background:#09090b}
.assistant{background:#18181b;border-color:#3f3f46}
.msg pre{background:#27272a}
.msg .sources{border-top-color:#3f3f46;color:#a1a1aa}
.consulted,.msg .support,.unsupported,.msg .unsupported-note{color:#a1a1aa}
.pending:empty::after{color:#a1a1aa}
.alert{background:#450a0a;color:#fecaca;border-top-color:#7f1d1d}
form{background:#18181b;border-top-color:#3f3f46}
textarea{background:#09090b;border-color:#52525b}
:focus-visible{outline-color:#a78bfa}
}
`;
