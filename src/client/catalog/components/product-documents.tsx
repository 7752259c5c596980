import { type FormEvent, useId, useState } from 'react';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import { lotProblem } from '@/shared/lots.ts';
import type { ProductDetail } from '@/shared/schemas/catalog.ts';
import type { PublicCertificate } from '@/shared/schemas/documents.ts';
import { shop } from '@/shared/shop.ts';

/** Table cells: tighter on a phone, so lot and both dates fit 390 px without scrolling. */
const cell = 'border border-slate-200 px-2 py-1.5 sm:px-3';

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];
/** '2025-10-10' → '10 oct 2025', the same on the server and in every browser (no Intl: no hydration drift). */
export const shortDate = (iso: string | null) => {
  if (!iso) return '—';
  const [y, m, d] = iso.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1] ?? ''} ${y}`;
};

function PdfBadge() {
  return (
    <span aria-hidden="true" className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white">
      PDF
    </span>
  );
}

/** Whether the family has an HDS or a certificate of analysis to show ('Documentos'). */
export const hasDocuments = (p: ProductDetail) => p.safetySheetUrl !== null || p.certificateCount > 0;

/**
 * The 'Documentos' tab's content (decision 028, tab since decision 036): the family's safety data sheet (HDS,
 * NOM-018-STPS-2015) beside the technical sheet, its newest certificates of analysis per lot, and a search by
 * lot number. Server-rendered like the rest of the page; the search works without JavaScript too (the form
 * downloads the certificate directly).
 */
export function ProductDocuments({ product: p }: { product: ProductDetail }) {
  return (
    <div data-testid="product-documents">
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div>
          <h3 className="font-semibold text-slate-900">Descargas</h3>
          <ul className="mt-3 space-y-2 text-sm">
            {p.datasheetUrl && (
              <li>
                <a
                  href={p.datasheetUrl}
                  target="_blank"
                  rel="noopener"
                  className="flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-3 font-medium text-brand-800 hover:border-brand-300"
                >
                  <PdfBadge />
                  Ficha técnica
                </a>
              </li>
            )}
            {p.safetySheetUrl ? (
              <li>
                <a
                  href={p.safetySheetUrl}
                  type="application/pdf"
                  className="flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-3 font-medium text-brand-800 hover:border-brand-300"
                >
                  <PdfBadge />
                  Hoja de datos de seguridad (HDS)
                </a>
                <p className="mt-1 text-xs text-slate-600">
                  16 secciones conforme a la NOM-018-STPS-2015; la misma para todas las presentaciones.
                </p>
              </li>
            ) : (
              <li className="text-slate-600">
                Hoja de datos de seguridad: solicítela a{' '}
                <a href={`mailto:${shop.email}`} className="text-brand-700 hover:underline">
                  {shop.email}
                </a>
                .
              </li>
            )}
          </ul>
        </div>
        <Certificates product={p} />
      </div>
    </div>
  );
}

function Certificates({ product: p }: { product: ProductDetail }) {
  if (p.certificateCount === 0) {
    return (
      <div>
        <h3 className="font-semibold text-slate-900">Certificados de análisis</h3>
        <p className="mt-3 text-sm text-slate-600">
          Aún no hay certificados publicados; pida el de su lote a{' '}
          <a href={`mailto:${shop.email}`} className="text-brand-700 hover:underline">
            {shop.email}
          </a>
          .
        </p>
      </div>
    );
  }
  return (
    <div>
      <h3 className="font-semibold text-slate-900">Certificados de análisis</h3>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr className="bg-slate-50 text-left">
              <th scope="col" className={`${cell} font-medium text-slate-700`}>
                Lote <span className="font-normal text-slate-500">(PDF)</span>
              </th>
              <th scope="col" className={`${cell} font-medium text-slate-700`}>
                Análisis
              </th>
              <th scope="col" className={`${cell} font-medium text-slate-700`}>
                Caducidad
              </th>
            </tr>
          </thead>
          <tbody>
            {p.certificates.map((c) => (
              <tr key={c.lot}>
                <td className={cell}>
                  <a
                    href={c.url}
                    type="application/pdf"
                    className="font-mono font-medium text-brand-700 underline decoration-brand-200 underline-offset-2 hover:decoration-brand-700"
                    aria-label={`Descargar el certificado del lote ${c.lot} (PDF)`}
                  >
                    {c.lot}
                  </a>
                </td>
                <td className={`${cell} whitespace-nowrap text-slate-700`}>{shortDate(c.analysisDate)}</td>
                <td className={`${cell} whitespace-nowrap text-slate-700`}>{shortDate(c.expiryDate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {p.certificateCount > p.certificates.length && (
        <p className="mt-1 text-xs text-slate-600">
          Se muestran los {p.certificates.length} lotes más recientes de {p.certificateCount}; busque el suyo
          por número.
        </p>
      )}
      <LotSearch code={p.code} />
    </div>
  );
}

type Outcome = { kind: 'found'; certificate: PublicCertificate } | { kind: 'error'; message: string } | null;

/** 'Buscar certificado por número de lote': the exact lot of this product (letter case aside). */
function LotSearch({ code }: { code: string }) {
  const id = useId();
  const [lot, setLot] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [pending, setPending] = useState(false);
  const action = `/api/products/${encodeURIComponent(code)}/certificate.pdf`;

  const search = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = lot.trim();
    const problem = lotProblem(typed);
    if (problem) {
      setOutcome({ kind: 'error', message: problem });
      return;
    }
    setPending(true);
    try {
      const found = await apiFetch<{ certificate: PublicCertificate }>(
        `/api/products/${encodeURIComponent(code)}/certificate?lot=${encodeURIComponent(typed)}`,
      );
      setOutcome({ kind: 'found', certificate: found.certificate });
    } catch (error) {
      setOutcome({
        kind: 'error',
        message: error instanceof ApiError ? error.message : 'No se pudo buscar el certificado',
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <form action={action} method="get" onSubmit={search} className="mt-5" noValidate>
      <label htmlFor={`${id}-lot`} className="block text-sm font-medium text-slate-900">
        Buscar certificado por número de lote
      </label>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        El número viene en la etiqueta del frasco (Lote / Lot).
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <input
          id={`${id}-lot`}
          name="lot"
          value={lot}
          onChange={(e) => setLot(e.target.value)}
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint ${id}-result`}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 font-mono text-sm uppercase placeholder:normal-case focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
          placeholder="p. ej. QR2510101"
        />
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {pending ? 'Buscando…' : 'Buscar'}
        </button>
      </div>
      <div id={`${id}-result`} aria-live="polite" className="mt-3 text-sm">
        {outcome?.kind === 'found' && (
          <p className="rounded-md border border-green-200 bg-green-50 p-3 text-green-900">
            Lote <span className="font-mono font-semibold">{outcome.certificate.lot}</span>
            {outcome.certificate.analysisDate && (
              <>, analizado el {shortDate(outcome.certificate.analysisDate)}</>
            )}
            .{' '}
            <a href={outcome.certificate.url} type="application/pdf" className="font-semibold underline">
              Descargar certificado de análisis (PDF)
            </a>
          </p>
        )}
        {outcome?.kind === 'error' && (
          <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900">
            {outcome.message}
          </p>
        )}
      </div>
    </form>
  );
}
