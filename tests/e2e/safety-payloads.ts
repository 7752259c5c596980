/**
 * XSS payloads for the browser safety journeys. Each one, if it ever ran, sets `window.__xss` and
 * opens a dialog; the journeys assert neither ever happens.
 */
const RUN = 'window.__xss=1;alert(1)';

export const PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<svg onload="${RUN}"></svg>`,
  `<svg><script>${RUN}</script></svg>`,
  `"><img src=x onerror=${RUN}>`,
  `'><svg/onload=${RUN}>`,
  `javascript:${RUN}`,
  `<a href="javascript:${RUN}">enlace</a>`,
  `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `</script><script>${RUN}</script>`,
  `<details open ontoggle="${RUN}">x</details>`,
  `<input autofocus onfocus="${RUN}">`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
  `<a href="jav&#x09;ascript:${RUN}">tab</a>`,
  `<object data="javascript:${RUN}"></object>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  // Template-literal and client-template tricks.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is the attack
  '${window.__xss=1}',
  "{{constructor.constructor('window.__xss=1')()}}",
  `<div style="background:url(javascript:${RUN})">css</div>`,
  `<base href="https://evil.example/">`,
];

/** A shipping address whose every free-text field carries a payload (within the fields' limits). */
export const ADDRESS_PAYLOADS = {
  nombreEnvio: `<img src=x onerror="${RUN}">`,
  telefonoEnvio: '3312345678',
  cpEnvio: '44100',
  calleEnvio: `<svg onload="${RUN}">`,
  numExtEnvio: '12',
  numIntEnvio: '"><b>x',
  coloniaEnvio: `<script>${RUN}</script>`,
  municipioEnvio: `'><svg/onload=${RUN}>`,
  ciudadEnvio: `javascript:${RUN}`,
  estadoEnvio: 'Jalisco',
};

/** Search terms: what a link from another site could put in /busqueda/… */
export const SEARCH_PAYLOADS = [PAYLOADS[0]!, PAYLOADS[1]!, PAYLOADS[4]!, PAYLOADS[9]!, PAYLOADS[16]!];
