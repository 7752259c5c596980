// npm run staff:create -- --email persona@empresa.mx [--rol administrador] [--nombre Laura] [--apellido Gómez]
//   [--telefono 3312345678] [--restablecer-segundo-factor]
// Creates a staff account with its role (or promotes an existing one). The password is asked without echo, or read
// from stdin when it is not a terminal (echo "$PASS" | npm run staff:create -- --email …).
import { parseArgs } from 'node:util';
import { createOrPromoteStaff, staffAccountSchema } from '../src/server/admin/staff.ts';
import { loadConfig } from '../src/server/config.ts';
import { STAFF_ROLES } from '../src/shared/staff-roles.ts';
import { exitWithConfigError, openCommandDatabase } from './cli.ts';

const USAGE = [
  'Uso: npm run staff:create -- --email persona@empresa.mx [--rol administrador] [--nombre Nombre] [--apellido Apellido] [--telefono 3312345678] [--restablecer-segundo-factor]',
  `Crea una cuenta de personal con su rol (${STAFF_ROLES.join(', ')}; administrador si no se indica) o promueve una existente.`,
  'Al entrar por primera vez en /admin configura la verificación en dos pasos (aplicación de autenticación);',
  '--restablecer-segundo-factor la quita a una cuenta existente (teléfono perdido) para configurarla de nuevo.',
  'La contraseña se pide sin mostrarla,',
  'o se lee de la entrada estándar: echo "$CLAVE" | npm run staff:create -- --email persona@empresa.mx',
].join('\n');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// parseArgs throws on an option it does not know ('--help' too): the person gets the usage, not a stack trace.
let values: {
  email?: string;
  rol?: string;
  nombre?: string;
  apellido?: string;
  telefono?: string;
  'restablecer-segundo-factor'?: boolean;
  help?: boolean;
};
try {
  values = parseArgs({
    options: {
      email: { type: 'string' },
      rol: { type: 'string' },
      'restablecer-segundo-factor': { type: 'boolean' },
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
  rol: values.rol,
  resetSecondFactor: values['restablecer-segundo-factor'] ?? false,
});
if (!parsed.success) {
  const labels: Record<string, string> = {
    email: 'Correo',
    nombre: 'Nombre',
    apellidoPat: 'Apellido',
    telefono: 'Teléfono',
    password: 'Contraseña',
    rol: 'Rol',
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
    ? `Cuenta de personal creada: ${parsed.data.email} (id ${id}, rol ${parsed.data.rol}). Inicie sesión en /admin y configure la verificación en dos pasos.`
    : `La cuenta ${parsed.data.email} (id ${id}) ahora es de personal con el rol ${parsed.data.rol}; su contraseña cambió y sus sesiones se cerraron.${parsed.data.resetSecondFactor ? ' Su verificación en dos pasos se restableció.' : ''}`,
);
await database.close();
