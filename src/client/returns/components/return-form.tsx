import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { SubmitButton } from '@/client/ui/form-field.tsx';
import { formatMoney } from '@/shared/money.ts';
import {
  RETURN_PHOTO_MAX_COUNT,
  RETURN_REASON_LABELS,
  RETURN_REASONS,
  type ReturnReason,
  returnRefusal,
} from '@/shared/returns.ts';
import type { OrderReturns } from '@/shared/schemas/returns.ts';
import { useRequestReturn } from '../api/returns.ts';

const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const toBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('No se pudo leer la foto'));
    reader.readAsDataURL(file);
  });

type Photo = { file: File; url: string };

/** «Solicitar devolución»: which products and how many, why, and photos when something is damaged. */
export function ReturnForm({ data, onDone }: { data: OrderReturns; onDone: () => void }) {
  const request = useRequestReturn(data.orderNumber);
  const [reason, setReason] = useState<ReturnReason | null>(null);
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [unopened, setUnopened] = useState(false);
  const [description, setDescription] = useState('');
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});

  /** A field's message goes as soon as the buyer changes it (the server's answer too). */
  const clear = (...keys: string[]) =>
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k) && k !== 'form')),
    );

  const chosen = data.lines
    .map((l) => ({ line: l, quantity: quantities[l.lineNo] ?? 0 }))
    .filter((c) => c.quantity > 0);
  const value = chosen.reduce((s, c) => s + c.line.unitPriceCents * c.quantity, 0);

  const addPhotos = (files: FileList | null) => {
    if (!files) return;
    clear('photos');
    const next = [...photos];
    for (const file of Array.from(files)) {
      if (next.length >= RETURN_PHOTO_MAX_COUNT) {
        setErrors((e) => ({ ...e, photos: `Máximo ${RETURN_PHOTO_MAX_COUNT} fotos` }));
        break;
      }
      if (!PHOTO_TYPES.includes(file.type)) {
        setErrors((e) => ({ ...e, photos: `${file.name}: la foto debe ser JPEG, PNG o WebP` }));
        continue;
      }
      if (file.size > PHOTO_MAX_BYTES) {
        setErrors((e) => ({ ...e, photos: `${file.name}: pesa más de 5 MB` }));
        continue;
      }
      next.push({ file, url: URL.createObjectURL(file) });
    }
    setPhotos(next);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!reason) found.reason = 'Elija el motivo';
    if (chosen.length === 0) found.lines = 'Elija al menos un producto y cuántas piezas';
    if (description.trim().length < 10) found.description = 'Describa el motivo en al menos 10 caracteres';
    if (reason === 'not_needed' && !unopened)
      found.unopened = 'Confirme que el producto está sin abrir y en su empaque original';
    if (reason === 'defective' && photos.length === 0)
      found.photos = 'Adjunte al menos una foto del defecto o daño';
    setErrors(found);
    if (Object.keys(found).length > 0 || !reason) return;
    try {
      const res = await request.mutateAsync({
        reason,
        description: description.trim(),
        unopened,
        lines: chosen.map((c) => ({ lineNo: c.line.lineNo, quantity: c.quantity })),
        photos: await Promise.all(photos.map(async (p) => ({ contentBase64: await toBase64(p.file) }))),
      });
      toast.success(res.message);
      for (const p of photos) URL.revokeObjectURL(p.url);
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) {
        setErrors({ ...(error.fields ?? {}), form: error.message });
      } else setErrors({ form: 'Error de conexión; intente de nuevo' });
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
      data-testid="return-form"
    >
      <h2 className="text-lg font-semibold text-slate-900">Solicitar devolución</h2>

      <fieldset className="mt-4">
        <legend className="text-sm font-medium text-slate-800">Motivo</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {RETURN_REASONS.map((r) => (
            <label
              key={r}
              className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2.5 text-sm ${reason === r ? 'border-brand-600 bg-brand-50 text-brand-900' : 'border-slate-300 text-slate-700 hover:bg-slate-50'}`}
            >
              <input
                type="radio"
                name="reason"
                value={r}
                checked={reason === r}
                onChange={() => {
                  setReason(r);
                  clear('reason', 'lines', 'unopened', 'photos');
                }}
                className="accent-brand-700"
              />
              {RETURN_REASON_LABELS[r]}
            </label>
          ))}
        </div>
        {errors.reason && <p className="mt-1 text-sm text-red-700">{errors.reason}</p>}
      </fieldset>

      <fieldset className="mt-5">
        <legend className="text-sm font-medium text-slate-800">Productos y piezas a devolver</legend>
        <ul className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200">
          {data.lines.map((l) => {
            const refusal = reason ? returnRefusal(reason, l) : null;
            const blocked = l.returnable === 0 || refusal !== null;
            return (
              <li key={l.lineNo} className="flex flex-wrap items-center justify-between gap-3 px-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium text-slate-900">{l.description}</p>
                  <p className="text-xs text-slate-500">
                    {l.productCode} · {formatMoney(l.unitPriceCents)} c/u · compró {l.quantity}
                  </p>
                  {l.returnable === 0 ? (
                    <p className="text-xs text-slate-500">Ya está en otra devolución</p>
                  ) : refusal ? (
                    <p className="text-xs text-amber-800">{refusal}</p>
                  ) : null}
                </div>
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  Piezas
                  <input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={l.returnable}
                    disabled={blocked}
                    value={blocked ? 0 : (quantities[l.lineNo] ?? 0)}
                    onChange={(e) => {
                      const n = Math.max(0, Math.min(l.returnable, Math.trunc(Number(e.target.value) || 0)));
                      setQuantities((q) => ({ ...q, [l.lineNo]: n }));
                      clear('lines');
                    }}
                    aria-label={`Piezas de ${l.description} a devolver`}
                    className="w-20 rounded-md border border-slate-300 px-2 py-1.5 text-right disabled:bg-slate-100"
                  />
                </label>
              </li>
            );
          })}
        </ul>
        {errors.lines && <p className="mt-1 text-sm text-red-700">{errors.lines}</p>}
        {value > 0 && (
          <p className="mt-2 text-sm text-slate-700">
            Importe de lo que devuelve: <strong>{formatMoney(value)}</strong>
          </p>
        )}
      </fieldset>

      {reason === 'not_needed' && (
        <label className="mt-4 flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={unopened}
            onChange={(e) => {
              setUnopened(e.target.checked);
              clear('unopened');
            }}
            className="mt-0.5 accent-brand-700"
          />
          El producto está sin abrir, sin uso y en su empaque original.
        </label>
      )}
      {errors.unopened && <p className="mt-1 text-sm text-red-700">{errors.unopened}</p>}

      <label className="mt-5 block text-sm font-medium text-slate-800" htmlFor="return-description">
        Describa qué pasó
      </label>
      <textarea
        id="return-description"
        rows={3}
        maxLength={1000}
        value={description}
        onChange={(e) => {
          setDescription(e.target.value);
          clear('description');
        }}
        className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
        placeholder="Por ejemplo: el frasco llegó con la tapa rota."
      />
      {errors.description && <p className="mt-1 text-sm text-red-700">{errors.description}</p>}

      <div className="mt-5">
        <p className="text-sm font-medium text-slate-800">
          Fotos {reason === 'defective' ? '(al menos una)' : '(opcional)'}
        </p>
        <p className="text-xs text-slate-500">
          JPEG, PNG o WebP, hasta 5 MB cada una; máximo {RETURN_PHOTO_MAX_COUNT}.
        </p>
        <div className="mt-2 flex flex-wrap gap-3">
          {photos.map((p, i) => (
            <div key={p.url} className="relative">
              <img
                src={p.url}
                alt={`Foto ${i + 1}`}
                className="size-20 rounded-md border border-slate-200 object-cover"
              />
              <button
                type="button"
                onClick={() => {
                  URL.revokeObjectURL(p.url);
                  setPhotos(photos.filter((x) => x !== p));
                }}
                className="absolute -top-2 -right-2 rounded-full border border-slate-300 bg-white px-1.5 text-xs text-slate-700"
                aria-label={`Quitar foto ${i + 1}`}
              >
                ×
              </button>
            </div>
          ))}
          {photos.length < RETURN_PHOTO_MAX_COUNT && (
            <label className="flex size-20 cursor-pointer items-center justify-center rounded-md border border-dashed border-slate-400 text-center text-xs text-slate-600 hover:bg-slate-50">
              Agregar foto
              <input
                type="file"
                accept="image/jpeg,image/png,image/webp"
                multiple
                className="sr-only"
                onChange={(e) => {
                  addPhotos(e.target.files);
                  e.target.value = '';
                }}
                data-testid="return-photos"
              />
            </label>
          )}
        </div>
        {errors.photos && <p className="mt-1 text-sm text-red-700">{errors.photos}</p>}
      </div>

      {errors.form && (
        <div className="mt-4">
          <Alert tone="danger">{errors.form}</Alert>
        </div>
      )}
      <div className="mt-6 flex justify-end">
        <SubmitButton loading={request.isPending} loadingLabel="Enviando" className="w-full sm:w-auto">
          Enviar solicitud
        </SubmitButton>
      </div>
    </form>
  );
}
