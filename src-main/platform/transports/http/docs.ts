import { connectToolsHtml } from '../openai/connect-docs.js';

/**
 * A readable, offline API reference at /api/docs: it renders /api/openapi.json in the page
 * itself (no CDN), with a curl example for every operation.
 */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Agent Desk API</title>
<style>
:root{color-scheme:light dark;--fg:#1d1d1f;--bg:#fff;--mut:#6b7280;--card:#f6f7f9;--acc:#2563eb}
@media (prefers-color-scheme:dark){:root{--fg:#e5e7eb;--bg:#111318;--mut:#9ca3af;--card:#1b1e25;--acc:#60a5fa}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0;padding:2rem;max-width:980px;margin:auto}
h1{margin:.2rem 0}h2{margin-top:2rem;border-bottom:1px solid var(--card);padding-bottom:.3rem}
.op{background:var(--card);border-radius:8px;padding:.8rem 1rem;margin:.6rem 0}
.m{display:inline-block;min-width:4.2rem;font-weight:700;font-family:ui-monospace,monospace}
.GET{color:#16a34a}.POST{color:#2563eb}.PATCH,.PUT{color:#d97706}.DELETE{color:#dc2626}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{overflow:auto;background:var(--bg);padding:.6rem;border-radius:6px}
.mut{color:var(--mut)}details summary{cursor:pointer;color:var(--acc)}
</style></head><body>
<h1>Agent Desk API</h1>
<p class="mut">The Agent Platform HTTP API on this machine. Every <code>/api</code> route needs <code>Authorization: Bearer &lt;key&gt;</code>
(create one in the app's Settings, or <code>npm run keys -- create NAME</code>). Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${connectToolsHtml()}
<div id="ops">Loading…</div>
<script>
const base = location.origin;
function esc(s){return String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]))}
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const byTag = {};
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) {
    const tag = (op.tags && op.tags[0]) || 'Other'; (byTag[tag] ||= []).push({path, method: method.toUpperCase(), op});
  }
  let html = '';
  for (const [tag, ops] of Object.entries(byTag)) {
    html += '<h2>'+esc(tag)+'</h2>';
    for (const {path, method, op} of ops) {
      const hasBody = op.requestBody && op.requestBody.content && op.requestBody.content['application/json'];
      const curl = 'curl -s ' + (method==='GET'?'':'-X '+method+' ') + "'"+base+path+"' \\\\\\n  -H 'Authorization: Bearer $AGENT_DESK_KEY'" + (hasBody? " \\\\\\n  -H 'Content-Type: application/json' -d '{...}'" : '');
      const params = (op.parameters||[]).map(p=>'<code>'+esc(p.name)+'</code> <span class="mut">('+esc(p.in)+')</span>').join(', ');
      html += '<div class="op"><span class="m '+method+'">'+method+'</span> <code>'+esc(path)+'</code><div>'+esc(op.summary||'')+'</div>'
        + (params? '<div class="mut">Parameters: '+params+'</div>' : '')
        + (hasBody? '<details><summary>Body schema</summary><pre>'+esc(JSON.stringify(op.requestBody.content['application/json'].schema,null,2))+'</pre></details>' : '')
        + '<details><summary>curl</summary><pre>'+esc(curl)+'</pre></details></div>';
    }
  }
  document.getElementById('ops').innerHTML = html;
});
</script></body></html>`;
}
