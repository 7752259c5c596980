import { transitionsMarkdown } from './transitions.ts';

/** Where decision 010 keeps the generated table of transitions, between two markers. */
export const DECISION_010 = 'docs/decisions/010-server-structure.md';
const START = /<!-- transitions:start[^>]*-->/;
const END = '<!-- transitions:end -->';

/** The decision's text with the table between its markers made anew from the code. */
export function withTransitionsTable(text: string): string {
  const start = text.match(START);
  const end = text.indexOf(END);
  if (!start || start.index === undefined || end < 0)
    throw new Error(`${DECISION_010}: faltan las marcas de la tabla`);
  const head = text.slice(0, start.index + start[0].length);
  return `${head}\n${transitionsMarkdown()}\n${text.slice(end)}`;
}
