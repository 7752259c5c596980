// npm run staff:create -- --email persona@empresa.mx [--nombre Laura] [--apellido Gómez] [--telefono 3312345678]
// Creates a staff account (or promotes an existing one). The password is asked without echo, or read
// from stdin when it is not a terminal (echo "$PASS" | npm run staff:create -- --email …).
import { parseArgs } from 'node:util';
import { createOrPromoteStaff, staffAccountSchema } from '../src/server/admin/staff.ts';
import { loadConfig } from '../src/server/config.ts';
import { exitWithConfigError, openCommandDatabase } from './cli.ts';

const USAGE = [
  'Uso: npm run staff:create -- --email persona@empresa.mx [--nombre Nombre] [--apellido Apellido] [--telefono 3312345678]',
  'Crea una cuenta de personal (o promueve una existente). La contraseña se pide sin mostrarla,',
  'o se lee de la entrada estándar: echo "$CLAVE" | npm run staff:create -- --email persona@empresa.mx',
].join('\n');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// parseArgs throws on an option it does not know ('--help' too): the person gets the usage, not a stack trace.
let values: { email?: string; nombre?: string; apellido?: string; telefono?: string; help?: boolean };
try {
  values = parseArgs({
    options: {
      email: { type: 'string' },
      nombre: { type: 'string' },
      apellido: { type: 'string' },
      telefono: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  fail(`${error instanceof Error ? `Opción no válida: ${error.message}\n` : ''}${USAGE}`);
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.email) fail(USAGE);

/** A line from the terminal with nothing echoed. */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    process.stdout.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let value = '';
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          process.stdout.write('\n');
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.split(/\r?\n/)[0] ?? '';
}

let password: string;
if (process.stdin.isTTY) {
  password = await askHidden('Contraseña: ');
  const again = await askHidden('Repita la contraseña: ');
  if (password !== again) fail('Las contraseñas no coinciden');
} else {
  password = await readStdin();
}

const parsed = staffAccountSchema.safeParse({
  email: values.email,
  nombre: values.nombre,
  apellidoPat: values.apellido,
  telefono: values.telefono,
  password,
});
if (!parsed.success) {
  const labels: Record<string, string> = {
    email: 'Correo',
    nombre: 'Nombre',
    apellidoPat: 'Apellido',
    telefono: 'Teléfono',
    password: 'Contraseña',
  };
  fail(
    parsed.error.issues
      .map((i) => `${labels[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`)
      .join('\n'),
  );
}

const config = exitWithConfigError(loadConfig);
const database = await openCommandDatabase(config);
await database.migrate();
const { id, created } = await createOrPromoteStaff(database.db, parsed.data);
console.log(
  created
    ? `Cuenta de personal creada: ${parsed.data.email} (id ${id}). Inicie sesión en /admin.`
    : `La cuenta ${parsed.data.email} (id ${id}) ahora es de personal; su contraseña cambió y sus sesiones se cerraron.`,
);
await database.close();
