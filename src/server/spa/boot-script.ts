import { createHash } from 'node:crypto';

/**
 * The page's only inline script (docs/decisions/019): it starts the client's JavaScript once the page has painted
 * its largest content, instead of from the head. A server-rendered page needs no JavaScript to be read, so on a slow
 * connection the HTML and the LCP image get the bandwidth first (React and the router are ≈ 110 KB compressed, ten
 * times the page's photo); the modules then load in the order the built index.html gave.
 *
 * First the whole stylesheet (`data-css`; the HTML carries only the utilities its markup uses, css-subset.ts), then,
 * once it has loaded, the entry: whatever React shows after hydration is styled. The link goes at the body's end,
 * after the page's own `<style>`: the whole sheet must come last, or a base utility of the page's subset (`hidden`)
 * would override the sheet's responsive variant of it (`lg:block`) — same layer, same specificity, later wins.
 *
 * When: after the document is parsed and the high-priority images in the viewport (the product photo, a listing's
 * first card; `elementtiming` on them, product-image.tsx) have been painted, as the browser reports through Element
 * Timing — the paint itself rather than a guess of it (the images' decode plus two animation frames, which is what
 * browsers without Element Timing, Safari and Firefox, still get): whatever starts before the largest paint is
 * recorded shares the slow link with the photo in Lighthouse's simulation (decision 041). A high-priority image that
 * fails to load counts as painted. At the latest 4 s after the parse; at once when the shopper touches, clicks or
 * types.
 * What the shopper does before React has hydrated the page is kept and done again once it has (src/client/main.tsx
 * calls `window.__tiendaBoot()` after the first commit): a click on a button, checkbox or radio (once: the second
 * click of a double click on the same control is dropped, as a double click means one action), a form's submission
 * (the search box's Enter), a select's new value (the listing's order). Text typed into a field is given again as an
 * input event: emptied through the element (React's value tracker records "") and set through the prototype's
 * setter, so React sees a change even when hydration kept the typed text. Links need nothing: they are real `<a href>`.
 *
 * Its SHA-256 goes into the page's Content-Security-Policy (`script-src 'self' 'sha256-…'`): no 'unsafe-inline'.
 * The entry and the module list are data attributes, so the text (and its hash) is the same for every build.
 */
export const BOOT_SCRIPT = `(()=>{const d=document,w=window,s=d.currentScript,q=[];let on=0;
const go=()=>{if(on)return;on=1;
for(const h of(s.dataset.preload||"").split(" ")){if(!h)continue;const l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.append(l)}
const run=()=>{const m=d.createElement("script");m.type="module";m.src=s.dataset.entry;d.head.append(m)};
const c=s.dataset.css;if(!c)return run();const l=d.createElement("link");l.rel="stylesheet";l.href=c;l.onload=l.onerror=run;d.body.append(l)};
const keep=(e,f)=>{e.preventDefault();e.stopPropagation();q.push(f);go()};
let last;const click=e=>{const b=e.target.closest&&e.target.closest("button,input[type=checkbox],input[type=radio]");if(!b||b.disabled)return;if(e.detail>1&&b===last){e.preventDefault();e.stopPropagation();return}last=b;keep(e,()=>b.click())};
const submit=e=>{const f=e.target,b=e.submitter;keep(e,()=>f.requestSubmit(b&&b.form===f?b:void 0))};
const change=e=>{const t=e.target;if(t.tagName!=="SELECT")return;const v=t.value;q.push(()=>{t.value=v;t.dispatchEvent(new Event("change",{bubbles:true}))});go()};
const input=e=>{const t=e.target;if(t.tagName!=="INPUT"&&t.tagName!=="TEXTAREA")return;const v=t.value;q.push(()=>{t.value="";Object.getOwnPropertyDescriptor(Object.getPrototypeOf(t),"value").set.call(t,v);t.dispatchEvent(new Event("input",{bubbles:true}))});go()};
const on3=[["click",click],["submit",submit],["change",change],["input",input]];
for(const[t,f]of on3)d.addEventListener(t,f,true);
for(const t of["pointerdown","keydown","touchstart"])d.addEventListener(t,go,{capture:true,once:true,passive:true});
const next=()=>{const f=q.shift();if(f){f();setTimeout(next,0)}};
w.__tiendaBoot=()=>{for(const[t,f]of on3)d.removeEventListener(t,f,true);next()};
const painted=()=>requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(go,0)));
const P=w.PerformanceObserver,et=P&&(P.supportedEntryTypes||[]).includes("element");
const ready=()=>{setTimeout(go,4000);const imgs=[...d.querySelectorAll("img[fetchpriority=high]")];
if(!et||!imgs.length)return Promise.all(imgs.map(i=>i.decode().catch(()=>{}))).then(painted);
const left=new Set(imgs.filter(i=>{const r=i.getBoundingClientRect();return r.bottom>0&&r.top<innerHeight&&r.right>0&&r.left<innerWidth}));
const o=new P(l=>{for(const e of l.getEntries())left.delete(e.element);check()});
const check=()=>{if(left.size)return;o.disconnect();setTimeout(go,0)};
for(const i of left){if(i.complete&&!i.naturalWidth)left.delete(i);else i.addEventListener("error",()=>{left.delete(i);check()})}
o.observe({type:"element",buffered:true});check()};
if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",ready);else ready()})()`;

/** The CSP source that allows exactly BOOT_SCRIPT. */
export const BOOT_SCRIPT_CSP = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The boot script element: the entry module and the modules to preload with it, in order, and the stylesheet the
 * page's inline CSS is cut from (loaded before the entry).
 */
export function bootScriptTag(entry: string, preload: string[], stylesheet?: string): string {
  const css = stylesheet ? ` data-css="${escapeAttr(stylesheet)}"` : '';
  return `<script id="tienda-arranque" data-entry="${escapeAttr(entry)}" data-preload="${escapeAttr(preload.join(' '))}"${css}>${BOOT_SCRIPT}</script>`;
}

/** A Content-Security-Policy with the boot script's hash added to script-src (the rest unchanged). */
export function withBootScript(csp: string): string {
  return csp.replace(
    /(^|;\s*)script-src\s([^;]*)/,
    (_m, lead: string, sources: string) => `${lead}script-src ${sources.trim()} ${BOOT_SCRIPT_CSP}`,
  );
}
