import type { ProductDetail } from '@/shared/schemas/catalog.ts';
import { hasDocuments, ProductDocuments } from './product-documents.tsx';
import { type ProductTab, ProductTabs } from './product-tabs.tsx';
import { SafetyPanel } from './safety-panel.tsx';

/** Typography for the stored (sanitized) long description, without a prose plugin. */
const richText = [
  'text-slate-700 leading-relaxed',
  '[&_h2]:mt-6 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-slate-900',
  '[&_h3]:mt-5 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:text-slate-900',
  '[&_h4]:mt-4 [&_h4]:font-semibold [&_h4]:text-slate-900',
  '[&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6',
  '[&_ol]:mt-3 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6',
  '[&_a]:text-brand-700 [&_a]:underline [&_strong]:text-slate-900',
  '[&_table]:mt-4 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm',
  '[&_th]:w-1/3 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-3 [&_th]:py-2 [&_th]:text-left [&_th]:font-medium [&_th]:text-slate-900',
  '[&_td]:border [&_td]:border-slate-200 [&_td]:px-3 [&_td]:py-2',
  '[&>:first-child]:mt-0',
].join(' ');

/**
 * 'Especificaciones Técnicas' (decision 036): tabs 'Características' (the long description, sanitized on write
 * by the server, and the datasheet PDF embedded from the same origin), 'Seguridad' (the SGA data, decision 027)
 * and 'Documentos' (HDS and certificates, decision 028), each only when the product has something to show there.
 */
export function TechnicalSpecs({ product }: { product: ProductDetail }) {
  const tabs: ProductTab[] = [];
  if (product.longDescHtml.trim() || product.datasheetUrl)
    tabs.push({
      id: 'caracteristicas',
      label: 'Características',
      content: <Characteristics product={product} />,
    });
  if (product.safety)
    tabs.push({ id: 'seguridad', label: 'Seguridad', content: <SafetyPanel product={product} /> });
  if (hasDocuments(product))
    tabs.push({ id: 'documentos', label: 'Documentos', content: <ProductDocuments product={product} /> });
  if (tabs.length === 0) return null;
  return (
    <section aria-labelledby="especificaciones" className="mt-12 sm:mt-16">
      <h2 id="especificaciones" className="text-xl font-semibold text-slate-900 sm:text-2xl">
        Especificaciones Técnicas
      </h2>
      <div className="mt-4">
        {/* Keyed by product: another product's page (a presentation, say) opens on its first tab or its address's. */}
        <ProductTabs key={product.code} label="Especificaciones" tabs={tabs} />
      </div>
    </section>
  );
}

/** 'Acerca de' and the 'Ficha técnica' PDF. */
function Characteristics({ product }: { product: ProductDetail }) {
  const html = product.longDescHtml.trim();
  return (
    <>
      {/* A product with only its datasheet has nothing 'about' it to tell: no empty heading. */}
      {html && <h3 className="text-lg font-semibold text-slate-900">Acerca de</h3>}
      {html && (
        <div
          className={`mt-3 max-w-3xl ${richText}`}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server on write (sanitize.ts)
          dangerouslySetInnerHTML={{ __html: html }}
        />
      )}
      {product.datasheetUrl && (
        <div className={html ? 'mt-8' : ''}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h4 className="font-semibold text-slate-900">Ficha técnica</h4>
            <a
              href={product.datasheetUrl}
              target="_blank"
              rel="noopener"
              className="hidden text-sm font-medium text-brand-700 hover:underline md:inline"
            >
              Descargar PDF
            </a>
          </div>
          {/* Phones rarely show a PDF inside a page: there, a button opens it instead. Not on paper. */}
          <iframe
            src={product.datasheetUrl}
            title={`Ficha técnica de ${product.name} (PDF)`}
            loading="lazy"
            className="mt-3 hidden h-[70vh] max-h-[48rem] min-h-96 w-full rounded-md border border-slate-200 bg-slate-50 md:block print:hidden"
          />
          <a
            href={product.datasheetUrl}
            target="_blank"
            rel="noopener"
            className="mt-3 flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm font-medium text-brand-800 hover:border-brand-300 md:hidden"
          >
            <span className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white">PDF</span>
            Ver ficha técnica (PDF)
          </a>
        </div>
      )}
    </>
  );
}
