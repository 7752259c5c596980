import type { ReactNode } from 'react';
import { formatDecimal } from '@/shared/money.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';

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
 * What a buyer sees beside the price without opening anything (decision 036): the pictograms (small, each
 * with its Spanish alt text), the signal word, and the link to the 'Seguridad' tab with the full statements.
 */
export function HazardSummary({ product }: { product: ProductDetail }) {
  const s = product.safety;
  if (!s) return null;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="hazard-summary">
      {s.pictograms.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Pictogramas de peligro">
          {s.pictograms.map((p) => (
            <li key={p.code}>
              <img
                src={p.url}
                alt={p.alt}
                title={p.name}
                width={40}
                height={40}
                fetchPriority="low"
                className="size-10"
              />
            </li>
          ))}
        </ul>
      )}
      {s.signalWord && <SignalWord word={s.signalWord} small />}
      <a href="#seguridad" className="text-sm font-medium text-brand-700 hover:underline">
        Ver información de seguridad (SGA)
      </a>
    </div>
  );
}

function SignalWord({ word, small = false }: { word: string; small?: boolean }) {
  const danger = word === 'Peligro';
  return (
    <strong
      className={`inline-block rounded font-bold uppercase tracking-wide ${small ? 'px-2 py-0.5 text-sm' : 'ml-1 px-2.5 py-1 text-base'} ${danger ? 'bg-red-700 text-white' : 'bg-amber-300 text-slate-900'}`}
    >
      {word}
    </strong>
  );
}

/**
 * The 'Seguridad' tab's content (decision 027; a tab since decision 036): the SGA/GHS pictograms, the signal
 * word, the hazard and precautionary statements with their codes and official Spanish texts, storage, grade,
 * molar mass, CAS and formula — the family base's data, so every presentation shows the same. No state.
 */
export function SafetyPanel({ product }: { product: ProductDetail }) {
  const s = product.safety;
  if (!s) return null;
  const facts: [string, ReactNode][] = [];
  if (product.casNumber)
    facts.push([
      'Número CAS',
      <span key="cas" className="font-mono">
        {product.casNumber}
      </span>,
    ]);
  if (product.formula) facts.push(['Fórmula', <Formula key="formula" text={product.formula} />]);
  if (s.molarMass !== null) facts.push(['Masa molar', `${formatDecimal(s.molarMass, 4)} g/mol`]);
  if (s.grade) facts.push(['Grado', s.grade.name]);
  if (s.storageConditions) facts.push(['Almacenamiento', s.storageConditions]);
  return (
    <>
      {(s.pictograms.length > 0 || s.signalWord) && (
        <div className="flex flex-wrap items-center gap-x-6 gap-y-4">
          {s.pictograms.length > 0 && (
            <ul className="flex flex-wrap gap-3" aria-label="Pictogramas de peligro (SGA)">
              {s.pictograms.map((p) => (
                <li key={p.code} className="flex w-20 flex-col items-center text-center">
                  <img src={p.url} alt={p.alt} width={72} height={72} loading="lazy" className="size-18" />
                  <span className="mt-1 text-xs leading-tight text-slate-600">{p.name}</span>
                </li>
              ))}
            </ul>
          )}
          {s.signalWord && (
            <p className="text-sm text-slate-600">
              Palabra de advertencia: <SignalWord word={s.signalWord} />
            </p>
          )}
        </div>
      )}

      {s.pictograms.length === 0 && !s.signalWord && s.hazardStatements.length === 0 && (
        <p className="text-sm font-medium text-slate-800">No clasificado como peligroso según el SGA.</p>
      )}
      <div className="mt-6 grid gap-8 empty:hidden lg:grid-cols-2">
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
    </>
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
