import { describe, expect, it } from 'vitest';
import { parseCas } from '../../../shared/cas.ts';
import { HAZARD_STATEMENTS, PRECAUTIONARY_STATEMENTS } from '../../../shared/ghs.ts';
import { demoFamilies, demoGroups } from './data.ts';
import { allReagentFacts } from './reagents.ts';

describe('the demo reagents (decision 027)', () => {
  it('a few dozen reagents, each a template of the catalogue with a valid CAS and only listed codes', () => {
    const templates = new Set(
      demoGroups.flatMap((g) => g.subgroups.flatMap((s) => s.templates.map((t) => t.name))),
    );
    const names = Object.keys(allReagentFacts);
    expect(names.length).toBeGreaterThanOrEqual(30);
    for (const name of names) {
      expect(templates.has(name), name).toBe(true);
      const facts = allReagentFacts[name]!;
      const cas = facts.cas ?? demoFamilies[name]?.reagent?.cas;
      if (cas) expect(parseCas(cas), `${name}: ${cas}`).toBe(cas);
      for (const h of facts.h) expect(HAZARD_STATEMENTS[h], `${name}: ${h}`).toBeTruthy();
      for (const p of facts.p) expect(PRECAUTIONARY_STATEMENTS[p], `${name}: ${p}`).toBeTruthy();
      // A hazardous substance has a signal word unless it only carries the environment pictogram.
      if (facts.h.length > 0) expect(facts.signal, name).toBeDefined();
      if (
        facts.pictograms.some((p) => ['GHS01', 'GHS05', 'GHS06', 'GHS08'].includes(p)) &&
        facts.h.some((h) => /^H(3[0-3]0|314|318|3[45]0|360|370|372)/.test(h))
      )
        expect(facts.signal, name).toBe('danger');
    }
    expect(allReagentFacts['Ácido clorhídrico 37 % grado ACS, {v} L']).toMatchObject({
      pictograms: ['GHS05', 'GHS07'],
      signal: 'danger',
      h: ['H290', 'H314', 'H335'],
    });
  });
});
