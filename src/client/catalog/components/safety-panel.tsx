import type { ReactNode } from 'react';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';

const molarMassFormat = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 4 });

/** 'CuSO4·5H2O' → Cu SO₄·5H₂O: a digit after a letter or ')' is a subscript; a leading coefficient is not. */
export function Formula({ text }: { text: string }) {
  const parts = text.split(/(?<=[A-Za-z)\]])(\d+)/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed string, never reordered
          <sub key={i}>{part}</sub>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * 'Seguridad' (decision 027): the SGA/GHS pictograms, the signal word, the hazard and precautionary statements
 * with their codes and official Spanish texts, storage, grade, molar mass, CAS and formula — the family base's
 * data, so every presentation shows the same. Nothing when the product has no safety data. Server-rendered,
 * no state: nothing can differ between the server's HTML and the hydrated page.
 */
export function SafetyPanel({ product }: { product: ProductDetail }) {
  const s = product.safety;
  if (!s) return null;
  const danger = s.signalWord === 'Peligro';
  const facts: [string, ReactNode][] = [];
  if (product.casNumber)
    facts.push([
      'Número CAS',
      <span key="cas" className="font-mono">
        {product.casNumber}
      </span>,
    ]);
  if (product.formula) facts.push(['Fórmula', <Formula key="formula" text={product.formula} />]);
  if (s.molarMass !== null) facts.push(['Masa molar', `${molarMassFormat.format(s.molarMass)} g/mol`]);
  if (s.grade) facts.push(['Grado', s.grade.name]);
  if (s.storageConditions) facts.push(['Almacenamiento', s.storageConditions]);
  return (
    <section id="seguridad" aria-labelledby="seguridad-titulo" className="mt-12 scroll-mt-20 sm:mt-16">
      <h2 id="seguridad-titulo" className="text-xl font-semibold text-slate-900 sm:text-2xl">
        Seguridad
      </h2>
      <div className="mt-4 rounded-lg border border-slate-200 bg-white p-5 sm:p-8">
        {(s.pictograms.length > 0 || s.signalWord) && (
          <div className="flex flex-wrap items-center gap-x-6 gap-y-4">
            {s.pictograms.length > 0 && (
              <ul className="flex flex-wrap gap-3" aria-label="Pictogramas de peligro (SGA)">
                {s.pictograms.map((p) => (
                  <li key={p.code} className="flex w-20 flex-col items-center text-center">
                    <img
                      src={p.url}
                      alt={p.alt}
                      width={72}
                      height={72}
                      loading="lazy"
                      decoding="async"
                      className="size-18"
                    />
                    <span className="mt-1 text-xs leading-tight text-slate-600">{p.name}</span>
                  </li>
                ))}
              </ul>
            )}
            {s.signalWord && (
              <p className="text-sm text-slate-600">
                Palabra de advertencia:{' '}
                <strong
                  className={`ml-1 inline-block rounded px-2.5 py-1 text-base font-bold uppercase tracking-wide ${danger ? 'bg-red-700 text-white' : 'bg-amber-300 text-slate-900'}`}
                >
                  {s.signalWord}
                </strong>
              </p>
            )}
          </div>
        )}

        <div className="mt-6 grid gap-8 lg:grid-cols-2">
          {s.hazardStatements.length > 0 && (
            <StatementList
              title="Indicaciones de peligro"
              id="indicaciones-peligro"
              items={s.hazardStatements}
            />
          )}
          {s.precautionaryStatements.length > 0 && (
            <StatementList
              title="Consejos de prudencia"
              id="consejos-prudencia"
              items={s.precautionaryStatements}
            />
          )}
        </div>

        {facts.length > 0 && (
          <div className="mt-8 border-t border-slate-200 pt-6">
            <h3 className="font-semibold text-slate-900">Datos del reactivo</h3>
            <dl className="mt-3 grid gap-x-8 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              {facts.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-slate-600">{label}</dt>
                  <dd className="text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        )}
        <p className="mt-6 text-xs text-slate-600">
          Clasificación según el Sistema Globalmente Armonizado (SGA, NOM-018-STPS-2015). Textos oficiales de
          las indicaciones y los consejos; consulte la hoja de datos de seguridad antes de usar el producto.
        </p>
      </div>
    </section>
  );
}

function StatementList({
  title,
  id,
  items,
}: {
  title: string;
  id: string;
  items: { code: string; text: string }[];
}) {
  return (
    <div>
      <h3 id={id} className="font-semibold text-slate-900">
        {title}
      </h3>
      <ul aria-labelledby={id} className="mt-3 space-y-2 text-sm">
        {items.map((st) => (
          <li key={st.code} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
            <span className="shrink-0 font-mono text-xs font-semibold leading-5 text-slate-800 sm:w-28">
              {st.code.replaceAll('+', '+\u200b')}
            </span>
            {/* 'guantes/prendas/gafas/máscara': the official alternatives may break at any slash on a phone. */}
            <span className="min-w-0 leading-5 text-slate-700 [overflow-wrap:anywhere]">
              {st.text.replaceAll('/', '/\u200b')}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
