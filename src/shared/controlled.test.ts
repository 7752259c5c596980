import { describe, expect, it } from 'vitest';
import { parseCas } from './cas.ts';
import { DECLARATION_TEXTS, DECLARATION_VERSION, LISTED_SUBSTANCES } from './controlled.ts';
import { declaredUseSchema } from './schemas/controlled.ts';

describe('controlled chemicals (decision 030)', () => {
  it('lists every substance with a CAS number whose check digit holds, once', () => {
    for (const s of LISTED_SUBSTANCES) expect(parseCas(s.cas), s.name).toBe(s.cas);
    expect(new Set(LISTED_SUBSTANCES.map((s) => s.cas)).size).toBe(LISTED_SUBSTANCES.length);
  });

  it('keeps the current declaration among the versioned texts, naming the law', () => {
    expect(DECLARATION_TEXTS[DECLARATION_VERSION]).toMatch(/^Declaro bajo protesta de decir verdad/);
    expect(DECLARATION_TEXTS[DECLARATION_VERSION]).toContain(
      'Ley Federal para el Control de Precursores Químicos',
    );
  });

  it('accepts a described use and refuses one that says nothing', () => {
    expect(
      declaredUseSchema.safeParse(
        'Titulaciones ácido-base en prácticas de química analítica, Facultad de Química',
      ).success,
    ).toBe(true);
    for (const v of [
      '',
      'laboratorio',
      'uso de laboratorio general',
      'aaaa aaaa aaaa aaaa aaaa aaaa aaaa',
      'x'.repeat(600),
    ])
      expect(declaredUseSchema.safeParse(v).success, v).toBe(false);
    expect(
      declaredUseSchema.safeParse('Limpieza de material de vidrio\u202E en el laboratorio escolar').success,
    ).toBe(false);
  });
});
