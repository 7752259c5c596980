import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { type AdminProduct, DATASHEET_MAX_BYTES, IMAGE_MAX_BYTES } from '@/shared/schemas/admin.ts';
import { uploadProductFile, useProductMutation } from '../api/save-product.ts';
import { fileToBase64, Panel } from '../components/admin-ui.tsx';

const LIMITS = {
  image: { max: IMAGE_MAX_BYTES, label: 'La imagen', accept: 'image/jpeg,image/png,image/webp' },
  datasheet: { max: DATASHEET_MAX_BYTES, label: 'La ficha técnica', accept: 'application/pdf' },
};

function Upload({ product, kind }: { product: AdminProduct; kind: 'image' | 'datasheet' }) {
  const [error, setError] = useState<string | null>(null);
  const upload = useProductMutation((base64: string) => uploadProductFile(product.code, kind, base64));
  const limit = LIMITS[kind];
  return (
    <div>
      <label className="inline-flex cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-700 shadow-sm hover:border-brand-500 hover:text-brand-700">
        {upload.isPending ? 'Subiendo…' : kind === 'image' ? 'Cambiar imagen' : 'Subir ficha PDF'}
        <input
          type="file"
          accept={limit.accept}
          className="sr-only"
          disabled={upload.isPending}
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            setError(null);
            if (!file) return;
            // The server judges the bytes; this only saves a long upload that would be refused.
            if (file.size > limit.max) {
              setError(
                `${limit.label} pesa ${(file.size / 1024 / 1024).toFixed(2)} MB; el límite es ${limit.max / 1024 / 1024} MB`,
              );
              return;
            }
            upload.mutate(await fileToBase64(file), {
              onSuccess: (d) => toast.success(d.message),
              onError: (err) => setError(err.message),
            });
          }}
        />
      </label>
      {error ? (
        <div className="mt-2">
          <Alert tone="danger">{error}</Alert>
        </div>
      ) : null}
    </div>
  );
}

export function ProductMediaPanel({ product }: { product: AdminProduct }) {
  return (
    <Panel title="Imagen y ficha técnica">
      <div className="flex items-start gap-4">
        {product.imageUrl ? (
          <img
            src={`${product.imageUrl}&w=320`}
            alt={product.name}
            className="size-28 shrink-0 rounded-lg border border-slate-200 object-contain"
          />
        ) : (
          <span className="flex size-28 shrink-0 items-center justify-center rounded-lg border border-dashed border-slate-300 text-xs text-slate-400">
            Sin imagen
          </span>
        )}
        <div className="grid gap-2 text-xs text-slate-500">
          <Upload product={product} kind="image" />
          <span>JPEG, PNG o WebP, hasta 5 MB.</span>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-4 text-sm">
        {product.datasheetUrl ? (
          <a
            href={product.datasheetUrl}
            target="_blank"
            rel="noreferrer"
            className="text-brand-700 hover:underline"
          >
            Ficha técnica (PDF)
          </a>
        ) : (
          <span className="text-slate-500">Sin ficha técnica</span>
        )}
        <Upload product={product} kind="datasheet" />
      </div>
      <p className="mt-2 text-xs text-slate-500">PDF hasta 10 MB.</p>
    </Panel>
  );
}
