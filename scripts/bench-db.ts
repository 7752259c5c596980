import pg from 'pg';

/**
 * Creates the PostgreSQL database named in `url` when it does not exist (benchmarks keep their own database,
 * e.g. tienda_bench). Connects to the server's `postgres` database to do it. Returns the database name.
 */
export async function createDatabaseIfMissing(url: string): Promise<string> {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Nombre de base inválido: ${name}`);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      console.log(`Creando la base ${name}…`);
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  return name;
}
