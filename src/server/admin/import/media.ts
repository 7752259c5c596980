import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { limitText, sizeText } from '../media-checks.ts';
import { contentHash } from '../products-service.ts';
import { ImportFileError } from './csv.ts';

// Pictures, datasheets and safety data sheets named after product codes, found in folders and checked.

export const IMAGE_EXTS = ['.jpg', '.jpeg', '.png', '.webp'];

/** code (lower case) → file path, for files whose name is a product code. */
export function indexDir(dir: string | undefined, exts: string[]): Map<string, string> {
  const index = new Map<string, string>();
  if (!dir) return index;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new ImportFileError(`No se puede leer la carpeta ${dir}`);
  }
  for (const name of names) {
    const ext = extname(name).toLowerCase();
    if (!exts.includes(ext)) continue;
    index.set(name.slice(0, -ext.length).toLowerCase(), join(dir, name));
  }
  return index;
}

/** A media file's hash, or why it is refused (an oversized file is judged by its size, unread). */
export async function checkFile(
  path: string,
  max: number,
  problemOf: (data: Buffer) => Promise<string | null>,
): Promise<{ hash: string } | { problem: string }> {
  const size = statSync(path).size;
  if (size > max) return { problem: `pesa ${sizeText(size)}; el límite es ${limitText(max)}` };
  const data = readFileSync(path);
  const problem = await problemOf(data);
  return problem ? { problem } : { hash: contentHash(data) };
}
