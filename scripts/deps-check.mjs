// npm run deps:check: the dependencies behind their latest release (npm outdated) and the advisories of what runs in
// production at high severity or above (npm audit --omit=dev --audit-level=high). Exit 1 only for such an advisory;
// when npm's registry or advisory database cannot be reached it says so and exits 0 (nothing was learned).
import { spawnSync } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// `npm run -s` passes a silent log level on to child npm processes: errors must still be told.
const run = (args) =>
  spawnSync(npm, args, {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_loglevel: 'warn' },
  });
const unreachable = (text) =>
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network|socket hang up|request to .* failed/i.test(
    text,
  );

console.log('1/2 Dependencias desactualizadas (npm outdated)…');
const outdated = run(['outdated', '--long']);
const outdatedText = `${outdated.stdout ?? ''}${outdated.stderr ?? ''}`;
if (outdated.error || unreachable(outdated.stderr ?? '')) {
  console.log('   No se pudo consultar el registro de npm (sin red): se omite.');
} else if ((outdated.stdout ?? '').trim() === '') {
  console.log('   Todas las dependencias están en su última versión.');
} else {
  console.log(outdatedText.trimEnd());
  console.log('   (Wanted: lo que package.json admite; Latest: la última publicada. Solo informativo.)');
}

console.log(
  '2/2 Avisos de seguridad de producción, gravedad alta o mayor (npm audit --omit=dev --audit-level=high)…',
);
// The JSON answer tells a report (metadata.vulnerabilities) from a failure to ask (no report: network, a registry
// or mirror without the advisory endpoint — npm's own 405 —, a timeout).
const json = run(['audit', '--omit=dev', '--json']);
let report;
try {
  report = JSON.parse(json.stdout ?? '');
} catch {}
const counts = report?.metadata?.vulnerabilities;
if (json.error || !counts) {
  const why = report?.message ?? report?.error?.summary ?? json.error?.message ?? (json.stderr ?? '').trim();
  console.log(
    `   No se pudo consultar la base de avisos de npm (${String(why || 'sin respuesta').split('\n')[0]}): no se sabe nada nuevo; se sale con 0.`,
  );
  process.exit(0);
}
const serious = (counts.high ?? 0) + (counts.critical ?? 0);
if (serious > 0) {
  console.log(run(['audit', '--omit=dev', '--audit-level=high']).stdout.trimEnd());
  console.error(
    `${counts.critical ?? 0} avisos críticos y ${counts.high ?? 0} altos en dependencias de producción: actualícelas (npm audit fix).`,
  );
  process.exit(1);
}
console.log(
  `   Sin avisos de gravedad alta o crítica en dependencias de producción (moderados: ${counts.moderate ?? 0}, bajos: ${counts.low ?? 0}).`,
);
