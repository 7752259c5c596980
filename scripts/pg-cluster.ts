/**
 * Throw-away PostgreSQL clusters through Debian's postgresql-common (`pg_createcluster`, `pg_ctlcluster`,
 * `pg_dropcluster`), for the crash tests (scripts/chaos.ts, decision 039): they stop PostgreSQL on purpose, so they
 * stop a cluster of their own instead of the machine's. A cluster's name ends in `_<pid>` of the run that made it, so
 * one left by a run that was killed outright is recognised and dropped by the next (`pg_lsclusters` lists them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The newest installed PostgreSQL version (the directory names of /etc/postgresql). */
export const pgVersion = () => readdirSync('/etc/postgresql').sort().at(-1)!;

/** Debian's cluster tools on the PATH (`pg_createcluster --help` exits 1, so its presence is what is checked). */
export const hasClusterTools = () =>
  existsSync('/etc/postgresql') &&
  (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'pg_createcluster')));

/** Starts or stops a cluster (the crash tests' outage). */
export function pgctl(cluster: string, action: 'start' | 'stop') {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion(), cluster, action], {
    stdio: 'pipe',
  });
}

/** Clusters named `…_chaos_<time>_<pid>` whose run is gone (killed before its cleanup): dropped. */
function dropStaleClusters() {
  const listed = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  for (const line of listed.split('\n')) {
    const [version, name] = line.trim().split(/\s+/);
    const pid = /_chaos_\d+_(\d+)$/.exec(name ?? '')?.[1];
    if (!version || !name || !pid) continue;
    try {
      process.kill(Number(pid), 0);
      continue; // that run is still going
    } catch {}
    execFileSync('pg_dropcluster', ['--stop', version, name], { stdio: 'pipe' });
    console.log(`[caos] clúster ${name} de una corrida interrumpida: borrado`);
  }
}

/**
 * A new cluster `name`, started on the next free port with trust authentication on 127.0.0.1 (fsync and the rest
 * as the package sets them for any cluster); returns its admin URL. Stale clusters of killed runs go first.
 */
export function makeCluster(name: string): string {
  dropStaleClusters();
  try {
    execFileSync(
      'pg_createcluster',
      [pgVersion(), name, '--start', '--', '--auth=trust', '--no-instructions'],
      {
        stdio: 'pipe',
      },
    );
  } catch (error) {
    throw new Error(
      `no se pudo crear el clúster propio de PostgreSQL (pg_createcluster necesita root o el usuario postgres); indique un servidor con CHAOS_DATABASE_URL: ${String(error)}`,
    );
  }
  const listed = execFileSync('pg_lsclusters', ['--no-header', pgVersion(), name], { encoding: 'utf8' });
  const port = listed.trim().split(/\s+/)[2];
  if (!port || !/^\d+$/.test(port))
    throw new Error(`pg_lsclusters no dio el puerto del clúster ${name}: ${listed}`);
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** Stops and deletes cluster `name`; a failure is reported, not thrown (it runs in cleanups). */
export function dropCluster(name: string) {
  try {
    execFileSync('pg_dropcluster', ['--stop', pgVersion(), name], { stdio: 'pipe' });
    return true;
  } catch (error) {
    console.error(`no se pudo borrar el clúster ${name}: ${String(error)}`);
    return false;
  }
}
