// Writes decision 010's table of order transitions from the one table in code (src/server/orders/transitions.ts),
// between its markers. `npm run docs:transitions`; a test (transitions.test.ts) fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DECISION_010, withTransitionsTable } from '../src/server/orders/transitions-doc.ts';

const path = resolve(import.meta.dirname, '..', DECISION_010);
const before = readFileSync(path, 'utf8');
const after = withTransitionsTable(before);
if (after === before) console.log(`${DECISION_010}: la tabla ya estaba al día`);
else {
  writeFileSync(path, after);
  console.log(`${DECISION_010}: tabla de transiciones regenerada`);
}
