import { useState } from 'react';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { IMPORT_MAX_BYTES, type ImportReport } from '@/shared/schemas/admin.ts';
import { useImportCatalogue } from '../api/import-catalogue.ts';
import { buttonClass, DataTable, fileToBase64, Panel, ScreenTitle, td, th } from '../components/admin-ui.tsx';

const COLUMNS =
  'code, name, brand, group, line, type, price, stock, weight_kg, short_desc, long_desc_html, active, sat_product_key, sat_unit_key';

function Report({ report }: { report: ImportReport }) {
  const failed = report.batches.filter((b) => b.error);
  return (
    <div className="grid gap-5">
      <Alert tone={report.rejected.length || failed.length ? 'warning' : 'success'}>{report.message}</Alert>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          [report.dryRun ? 'Se crearían' : 'Creados', report.created],
          [report.dryRun ? 'Se actualizarían' : 'Actualizados', report.updated],
          ['Sin cambios', report.unchanged],
          ['Rechazadas', report.rejected.length],
        ].map(([label, value]) => (
          <div key={String(label)} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {report.brandsCreated.length ? (
        <p className="text-sm text-slate-700">
          Marcas nuevas{report.dryRun ? ' que se crearían' : ''}: {report.brandsCreated.join(', ')}
        </p>
      ) : null}
      {report.rejected.length ? (
        <Panel title="Filas rechazadas">
          <DataTable
            head={
              <tr>
                <th className={th}>Línea</th>
                <th className={th}>Código</th>
                <th className={th}>Motivo</th>
              </tr>
            }
          >
            {report.rejected.map((r) => (
              <tr key={r.line}>
                <td className={`${td} tabular-nums`}>{r.line}</td>
                <td className={td}>{r.code ?? '—'}</td>
                <td className="px-4 py-3 text-red-700">{r.reasons.join('; ')}</td>
              </tr>
            ))}
          </DataTable>
        </Panel>
      ) : null}
      {report.changes.length ? (
        <Panel title={report.dryRun ? 'Cambios que se harían' : 'Cambios'}>
          <ul className="divide-y divide-slate-100 text-sm">
            {report.changes.map((c) => (
              <li key={c.line} className="flex flex-wrap gap-x-3 py-1.5">
                <span className="w-16 text-slate-500">línea {c.line}</span>
                <span className="font-medium">{c.code}</span>
                <span className="text-slate-600">{c.kind === 'created' ? 'nuevo' : c.fields.join(', ')}</span>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
      {!report.dryRun && report.batches.length ? (
        <Panel title="Lotes">
          <ul className="text-sm">
            {report.batches.map((b) => (
              <li key={b.index} className={b.error ? 'text-red-700' : 'text-slate-700'}>
                Lote {b.index} (líneas {b.firstLine}–{b.lastLine}, {b.rows} filas):{' '}
                {b.landed ? 'aplicado' : `NO aplicado — ${b.error}`}
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
    </div>
  );
}

export function ImportScreen() {
  useDocumentTitle('Importar catálogo — Administración');
  const [file, setFile] = useState<File | null>(null);
  const [strict, setStrict] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const run = useImportCatalogue();
  const start = async (dryRun: boolean) => {
    if (!file) return;
    setLocalError(null);
    run.mutate({ filename: file.name, contentBase64: await fileToBase64(file), dryRun, strict });
  };
  return (
    <>
      <ScreenTitle
        title="Importar catálogo"
        subtitle="Un CSV en UTF-8 con una fila por producto; se actualiza por código y se crean los que no existen."
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Panel title="Archivo">
          <div className="grid gap-4">
            <input
              type="file"
              accept=".csv,text/csv"
              aria-label="Archivo CSV"
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:font-semibold file:text-brand-700 hover:file:bg-brand-100"
              onChange={(e) => {
                const f = e.target.files?.[0] ?? null;
                run.reset();
                setLocalError(f && f.size > IMPORT_MAX_BYTES ? 'El archivo supera el límite de 20 MB' : null);
                setFile(f && f.size <= IMPORT_MAX_BYTES ? f : null);
              }}
            />
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="size-4 accent-brand-700"
                checked={strict}
                onChange={(e) => setStrict(e.target.checked)}
              />
              No importar nada si alguna fila tiene errores
            </label>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className={buttonClass.secondary}
                disabled={!file || run.isPending}
                onClick={() => start(true)}
              >
                Revisar sin guardar
              </button>
              <button
                type="button"
                className={buttonClass.primary}
                disabled={!file || run.isPending}
                onClick={() => start(false)}
              >
                {run.isPending ? 'Procesando…' : 'Importar'}
              </button>
            </div>
            {localError ? <Alert tone="danger">{localError}</Alert> : null}
            {run.error ? <Alert tone="danger">{run.error.message}</Alert> : null}
          </div>
        </Panel>
        <Panel title="Formato">
          <div className="grid gap-2 text-sm text-slate-600">
            <p>
              Primera fila: encabezado con estas columnas (solo «code» es obligatoria; las que falten no se
              tocan):
            </p>
            <p className="break-words font-mono text-xs text-slate-800">{COLUMNS}</p>
            <p>
              Separador coma o punto y coma. Precios con punto o coma decimal (1234.50 o 1234,50). «group» es
              la clave CLAS de un grupo existente.
            </p>
            <p>
              Las imágenes, fichas PDF y hojas de datos de seguridad se suben en cada producto, o por línea de
              comandos con --images, --datasheets y --hds (la HDS con el código de la base de la familia).
            </p>
          </div>
        </Panel>
      </div>
      {run.data ? (
        <div className="mt-6">
          <Report report={run.data} />
        </div>
      ) : null}
    </>
  );
}
