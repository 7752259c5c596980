import { createHash } from 'node:crypto';

/**
 * The page's only inline script (docs/decisions/019): it starts the client's JavaScript once the page has painted
 * its largest content, instead of from the head. A server-rendered page needs no JavaScript to be read, so on a slow
 * connection the HTML and the LCP image get the bandwidth first (React and the router are ≈ 110 KB compressed, ten
 * times the page's photo); the modules then load in the order the built index.html gave.
 *
 * When: after the document is parsed, the high-priority images (the product photo, a listing's first row) have
 * loaded and decoded, and one frame has been painted — or at once when the shopper touches, clicks or types.
 * A click on a button before React has attached its listeners is kept and given again right after `hydrateRoot`
 * (src/client/main.tsx calls `window.__tiendaBoot()`): a tap on the menu before hydration is not lost.
 *
 * Its SHA-256 goes into the page's Content-Security-Policy (`script-src 'self' 'sha256-…'`): no 'unsafe-inline'.
 * The entry and the module list are data attributes, so the text (and its hash) is the same for every build.
 */
export const BOOT_SCRIPT = `(()=>{const d=document,s=d.currentScript,q=[];let on=0;
const go=()=>{if(on)return;on=1;
for(const h of(s.dataset.preload||"").split(" ")){if(!h)continue;const l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.append(l)}
const m=d.createElement("script");m.type="module";m.src=s.dataset.entry;d.head.append(m)};
const click=e=>{const b=e.target.closest&&e.target.closest("button");if(!b||b.disabled)return;e.preventDefault();e.stopPropagation();q.push(b);go()};
d.addEventListener("click",click,true);
for(const t of["pointerdown","keydown","touchstart"])d.addEventListener(t,go,{capture:true,once:true,passive:true});
window.__tiendaBoot=()=>{d.removeEventListener("click",click,true);for(const b of q.splice(0))b.click()};
const painted=()=>requestAnimationFrame(()=>setTimeout(go,0));
const ready=()=>{const imgs=[...d.querySelectorAll("img[fetchpriority=high]")];
Promise.all(imgs.map(i=>i.decode().catch(()=>{}))).then(painted);setTimeout(go,4000)};
if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",ready);else ready()})()`;

/** The CSP source that allows exactly BOOT_SCRIPT. */
export const BOOT_SCRIPT_CSP = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The boot script element: the entry module and the modules to preload with it, in order. */
export function bootScriptTag(entry: string, preload: string[]): string {
  return `<script id="tienda-arranque" data-entry="${escapeAttr(entry)}" data-preload="${escapeAttr(preload.join(' '))}">${BOOT_SCRIPT}</script>`;
}

/** A Content-Security-Policy with the boot script's hash added to script-src (the rest unchanged). */
export function withBootScript(csp: string): string {
  return csp.replace(
    /(^|;\s*)script-src\s([^;]*)/,
    (_m, lead: string, sources: string) => `${lead}script-src ${sources.trim()} ${BOOT_SCRIPT_CSP}`,
  );
}
