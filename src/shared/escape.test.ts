import { describe, expect, it } from 'vitest';
import { escapeMarkup, unescapeXml } from './escape.ts';

describe('markup escaping', () => {
  it('round-trips a razón social with every character that could break a mail, a SOAP body or a PAC answer', () => {
    const name = `Laboratorios "Ñandú" & Hijos <Occidente> O'Brien`;
    expect(escapeMarkup(name)).toBe(
      'Laboratorios &quot;Ñandú&quot; &amp; Hijos &lt;Occidente&gt; O&#39;Brien',
    );
    expect(unescapeXml(escapeMarkup(name))).toBe(name);
    // What PACs and the SAT send back: named, decimal and hexadecimal references.
    expect(unescapeXml('O&apos;Brien &#38; &#x26;amp;')).toBe("O'Brien & &amp;");
  });
});
