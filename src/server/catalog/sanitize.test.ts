import { describe, expect, it } from 'vitest';
import { sanitizeLongDescription } from './sanitize.ts';

describe('sanitizeLongDescription', () => {
  it('links keep rel="noopener noreferrer nofollow" and target="_blank" (the allowlist must not strip them)', () => {
    const out = sanitizeLongDescription('<p><a href="https://fabricante.example/ficha">Ficha</a></p>');
    expect(out).toContain('href="https://fabricante.example/ficha"');
    expect(out).toMatch(/rel="noopener noreferrer nofollow"/);
    expect(out).toMatch(/target="_blank"/);
  });

  it('a rel or target written in the description is replaced by the shop’s own', () => {
    const out = sanitizeLongDescription(
      '<a href="https://x.example/" rel="opener" target="_self" onclick="alert(1)">x</a>',
    );
    expect(out).toBe('<a href="https://x.example/" rel="noopener noreferrer nofollow" target="_blank">x</a>');
  });

  it('still drops javascript: links and event handlers', () => {
    const out = sanitizeLongDescription('<a href="javascript:alert(1)" onmouseover="x()">y</a>');
    expect(out).not.toContain('javascript:');
    expect(out).not.toContain('onmouseover');
  });
});
