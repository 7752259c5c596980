import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { lotProblem } from '@/shared/lots.ts';
import { SAFETY_DOC_MAX_BYTES } from '@/shared/schemas/documents.ts';
import {
  removeCertificate,
  removeSafetySheet,
  uploadCertificate,
  uploadSafetySheet,
  useDocumentsMutation,
  useProductDocuments,
} from '../api/product-documents.ts';
import {
  buttonClass,
  FieldMessage,
  fieldClass,
  fileToBase64,
  formatDateTime,
  formatDay,
  Panel,
} from '../components/admin-ui.tsx';

const LIMIT_MB = SAFETY_DOC_MAX_BYTES / 1024 / 1024;
const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;
/** Saves a long upload the server would refuse anyway (it judges the bytes itself). */
const tooBig = (file: File, what: string) =>
  file.size > SAFETY_DOC_MAX_BYTES
    ? `${what} pesa ${(file.size / 1024 / 1024).toFixed(2)} MB; el límite es ${LIMIT_MB} MB`
    : null;

/**
 * 'Seguridad y calidad' in the product editor (decision 028): the family's HDS (upload, replace, remove) and
 * its certificates of analysis per lot (upload, list, delete). Presentations share them with their base.
 */
export function ProductDocumentsPanel({ code }: { code: string }) {
  const documents = useProductDocuments(code);
  const family = documents.data?.familyCode;
  return (
    <Panel title="Seguridad y calidad">
      {documents.isPending ? (
        <p className="text-sm text-slate-500">Cargando documentos…</p>
      ) : documents.isError ? (
        <Alert tone="danger">{documents.error.message}</Alert>
      ) : (
        <div className="grid gap-5">
          {family && family !== code ? (
            <p className="text-xs text-slate-600">
              Compartidos por todas las presentaciones de la familia{' '}
              <span className="font-mono">{family}</span>.
            </p>
          ) : null}
          <SafetySheet code={code} />
          <CertificateList code={code} />
          <CertificateForm code={code} />
        </div>
      )}
    </Panel>
  );
}

function SafetySheet({ code }: { code: string }) {
  const documents = useProductDocuments(code);
  const [error, setError] = useState<string | null>(null);
  const upload = useDocumentsMutation(code, (base64: string) => uploadSafetySheet(code, base64));
  const remove = useDocumentsMutation(code, () => removeSafetySheet(code));
  const hds = documents.data?.hds;
  return (
    <div data-testid="admin-hds">
      <h3 className="text-sm font-semibold text-slate-900">Hoja de datos de seguridad (HDS)</h3>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
        {hds ? (
          <span>
            <a href={hds.url} className="text-brand-700 hover:underline">
              HDS (PDF, {kb(hds.bytes)})
            </a>
            <span className="block text-xs text-slate-500">
              {formatDateTime(hds.uploadedAt)}
              {hds.uploadedBy ? ` · ${hds.uploadedBy}` : ''}
            </span>
          </span>
        ) : (
          <span className="text-slate-500">Sin HDS</span>
        )}
        <div className="flex gap-2">
          <label className={`${buttonClass.secondary} cursor-pointer px-3 py-1.5`}>
            {upload.isPending ? 'Subiendo…' : hds ? 'Reemplazar HDS' : 'Subir HDS'}
            <input
              type="file"
              accept="application/pdf,.pdf"
              className="sr-only"
              disabled={upload.isPending}
              onChange={async (e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                setError(null);
                if (!file) return;
                const big = tooBig(file, 'La hoja de datos de seguridad (HDS)');
                if (big) return setError(big);
                upload.mutate(await fileToBase64(file), {
                  onSuccess: (d) => toast.success(d.message),
                  onError: (err) => setError(err.message),
                });
              }}
            />
          </label>
          {hds ? (
            <button
              type="button"
              className={`${buttonClass.danger} px-3 py-1.5`}
              disabled={remove.isPending}
              onClick={() => {
                if (!window.confirm('¿Quitar la HDS de este producto y de sus presentaciones?')) return;
                setError(null);
                remove.mutate(undefined, {
                  onSuccess: (d) => toast.success(d.message),
                  onError: (err) => setError(err.message),
                });
              }}
            >
              Quitar
            </button>
          ) : null}
        </div>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        PDF hasta {LIMIT_MB} MB, la del fabricante (16 secciones, NOM-018-STPS-2015).
      </p>
      {error ? (
        <div className="mt-2">
          <Alert tone="danger">{error}</Alert>
        </div>
      ) : null}
    </div>
  );
}

function CertificateList({ code }: { code: string }) {
  const documents = useProductDocuments(code);
  const remove = useDocumentsMutation(code, (id: number) => removeCertificate(code, id));
  const list = documents.data?.certificates ?? [];
  return (
    <div className="border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Certificados de análisis por lote</h3>
      {list.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">Sin certificados.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100 text-sm" data-testid="admin-certificates">
          {list.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <a href={c.url} className="font-mono font-medium text-brand-700 hover:underline">
                  {c.lot}
                </a>
                <span className="block text-xs text-slate-500">
                  Análisis {formatDay(c.analysisDate)} · caducidad {formatDay(c.expiryDate)} · {kb(c.bytes)}
                  <br />
                  Subido {formatDateTime(c.uploadedAt)}
                  {c.uploadedBy ? ` por ${c.uploadedBy}` : ''}
                </span>
              </span>
              <button
                type="button"
                className="text-xs font-semibold text-red-700 hover:underline disabled:opacity-50"
                disabled={remove.isPending}
                aria-label={`Eliminar el certificado del lote ${c.lot}`}
                onClick={() => {
                  if (!window.confirm(`¿Eliminar el certificado del lote ${c.lot}?`)) return;
                  remove.mutate(c.id, {
                    onSuccess: (d) => toast.success(d.message),
                    onError: (err) => toast.error(err.message),
                  });
                }}
              >
                Eliminar
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CertificateForm({ code }: { code: string }) {
  const id = useId();
  const [lot, setLot] = useState('');
  const [analysisDate, setAnalysisDate] = useState('');
  const [expiryDate, setExpiryDate] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const upload = useDocumentsMutation(code, async () =>
    uploadCertificate(code, {
      lot,
      analysisDate: analysisDate || null,
      expiryDate: expiryDate || null,
      contentBase64: file ? await fileToBase64(file) : '',
    }),
  );
  return (
    <form
      className="grid gap-3 rounded-lg bg-slate-50 p-3 sm:grid-cols-2"
      data-testid="admin-certificate-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        const local: Record<string, string> = {};
        const lotMessage = lotProblem(lot.trim());
        if (lotMessage) local.lot = lotMessage;
        if (!file) local.contentBase64 = 'Elija el PDF del certificado';
        else {
          const big = tooBig(file, 'El certificado de análisis');
          if (big) local.contentBase64 = big;
        }
        setFields(local);
        if (Object.keys(local).length > 0) return;
        upload.mutate(undefined, {
          onSuccess: (d) => {
            toast.success(d.message);
            setLot('');
            setAnalysisDate('');
            setExpiryDate('');
            setFile(null);
            setInputKey((k) => k + 1);
          },
          onError: (err) => {
            const server = (err as { fields?: Record<string, string> }).fields ?? {};
            setFields(server);
            setError(err.message);
          },
        });
      }}
    >
      <h4 className="text-sm font-semibold text-slate-900 sm:col-span-2">Agregar certificado</h4>
      <label className="text-sm" htmlFor={`${id}-lot`}>
        <span className="font-medium text-slate-700">Número de lote</span>
        <input
          id={`${id}-lot`}
          className={`${fieldClass} mt-1 font-mono`}
          value={lot}
          maxLength={40}
          aria-invalid={!!fields.lot}
          onChange={(e) => setLot(e.target.value)}
        />
        <FieldMessage message={fields.lot} />
      </label>
      <label className="text-sm" htmlFor={`${id}-file`}>
        <span className="font-medium text-slate-700">Certificado (PDF)</span>
        <input
          key={inputKey}
          id={`${id}-file`}
          type="file"
          accept="application/pdf,.pdf"
          className="mt-1 block w-full text-sm"
          aria-invalid={!!fields.contentBase64}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <FieldMessage message={fields.contentBase64} />
      </label>
      <label className="text-sm" htmlFor={`${id}-analysis`}>
        <span className="font-medium text-slate-700">Fecha de análisis (opcional)</span>
        <input
          id={`${id}-analysis`}
          type="date"
          className={`${fieldClass} mt-1`}
          value={analysisDate}
          onChange={(e) => setAnalysisDate(e.target.value)}
        />
        <FieldMessage message={fields.analysisDate} />
      </label>
      <label className="text-sm" htmlFor={`${id}-expiry`}>
        <span className="font-medium text-slate-700">Caducidad (opcional)</span>
        <input
          id={`${id}-expiry`}
          type="date"
          className={`${fieldClass} mt-1`}
          value={expiryDate}
          onChange={(e) => setExpiryDate(e.target.value)}
        />
        <FieldMessage message={fields.expiryDate} />
      </label>
      {error ? (
        <div className="sm:col-span-2">
          <Alert tone="danger">{error}</Alert>
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <button type="submit" className={`${buttonClass.primary} px-3 py-1.5`} disabled={upload.isPending}>
          {upload.isPending ? 'Subiendo…' : 'Subir certificado'}
        </button>
        <span className="ml-3 text-xs text-slate-500">PDF hasta {LIMIT_MB} MB; un certificado por lote.</span>
      </div>
    </form>
  );
}
