import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { REGIMENES_FISCALES, USOS_FOR_SALE } from '@/shared/sat-catalogs.ts';
import type { InstitutionCreateInput } from '@/shared/schemas/institutions.ts';
import { useAdminInstitutions, useCreateInstitution } from '../api/institutions.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  FieldMessage,
  fieldClass,
  formatDateTime,
  Pager,
  Panel,
  ScreenTitle,
  serverFields,
  td,
  th,
} from '../components/admin-ui.tsx';

const EMPTY: InstitutionCreateInput = {
  nombreFiscal: '',
  rfc: '',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  cp: '',
  billingEmail: '',
  adminEmail: '',
};

/** «Nueva institución»: the fiscal identity (checked as an invoice is), its billing mailbox and its administrador. */
function CreateInstitution() {
  const create = useCreateInstitution();
  const navigate = useNavigate();
  const [form, setForm] = useState<InstitutionCreateInput>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (key: keyof InstitutionCreateInput) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const field = (key: keyof InstitutionCreateInput, label: string, extra: object = {}) => (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <input
        className={`${fieldClass} mt-1`}
        value={String(form[key] ?? '')}
        onChange={set(key)}
        aria-invalid={errors[key] ? true : undefined}
        {...extra}
      />
      <FieldMessage message={errors[key]} />
    </label>
  );
  return (
    <Panel title="Nueva institución">
      <form
        noValidate
        aria-label="Nueva institución"
        className="grid gap-4 md:grid-cols-2"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setErrors({});
          create.mutate(form, {
            onSuccess: (created) => {
              toast.success(
                form.adminEmail
                  ? `Institución creada; invitación enviada a ${form.adminEmail}`
                  : 'Institución creada',
              );
              setForm(EMPTY);
              navigate(`/admin/instituciones/${created.id}`);
            },
            onError: (error) => {
              setErrors(serverFields(error));
              toast.error(error.message);
            },
          });
        }}
      >
        {field('nombreFiscal', 'Razón social (sin régimen de capital)')}
        {field('rfc', 'RFC', { autoCapitalize: 'characters', maxLength: 13 })}
        <label className="block text-sm font-medium text-slate-700">
          Régimen fiscal
          <select className={`${fieldClass} mt-1`} value={form.regimenFiscal} onChange={set('regimenFiscal')}>
            {REGIMENES_FISCALES.map((r) => (
              <option key={r.code} value={r.code}>
                {r.code} - {r.description}
              </option>
            ))}
          </select>
          <FieldMessage message={errors.regimenFiscal} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Uso de CFDI
          <select className={`${fieldClass} mt-1`} value={form.usoCfdi} onChange={set('usoCfdi')}>
            {USOS_FOR_SALE.map((u) => (
              <option key={u.code} value={u.code}>
                {u.code} - {u.description}
              </option>
            ))}
          </select>
          <FieldMessage message={errors.usoCfdi} />
        </label>
        {field('cp', 'Código postal fiscal', { inputMode: 'numeric', maxLength: 5 })}
        {field('billingEmail', 'Correo de cuentas por pagar', { type: 'email' })}
        {field('adminEmail', 'Correo del administrador (se le envía la invitación)', { type: 'email' })}
        <div className="flex items-end">
          <button type="submit" className={buttonClass.primary} disabled={create.isPending}>
            Crear institución
          </button>
        </div>
      </form>
    </Panel>
  );
}

export function InstitutionsScreen() {
  useDocumentTitle('Instituciones — Administración');
  const [params, setParams] = useSearchParams();
  const query = { q: params.get('q') ?? '', page: Number(params.get('page') ?? 1) || 1 };
  const [q, setQ] = useState(query.q);
  const { data, isPending, error } = useAdminInstitutions(query);
  return (
    <>
      <ScreenTitle
        title="Instituciones"
        subtitle="Cuentas institucionales: datos fiscales, verificación, condiciones de compra y su administrador."
      />
      <div className="grid gap-5">
        <CreateInstitution />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setParams(q.trim() ? { q: q.trim() } : {});
          }}
          className="flex flex-wrap gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          aria-label="Buscar instituciones"
        >
          <input
            className={`${fieldClass} min-w-0 flex-1 basis-56`}
            placeholder="Razón social o RFC"
            aria-label="Buscar instituciones"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
          <button type="submit" className={buttonClass.primary}>
            Buscar
          </button>
        </form>
        {error ? <Alert tone="danger">{error.message}</Alert> : null}
        {isPending ? (
          <Spinner />
        ) : data ? (
          <div>
            <DataTable
              empty={data.items.length === 0 ? 'Ninguna institución coincide con la búsqueda.' : null}
              head={
                <tr>
                  <th className={th}>Razón social</th>
                  <th className={th}>RFC</th>
                  <th className={th}>Estado</th>
                  <th className={`${th} text-right`}>Miembros</th>
                  <th className={th}>Alta</th>
                </tr>
              }
            >
              {data.items.map((i) => (
                <tr key={i.id} className="hover:bg-slate-50">
                  <td className={td}>
                    <Link
                      to={`/admin/instituciones/${i.id}`}
                      className="font-semibold text-brand-700 hover:underline"
                    >
                      {i.razonSocial}
                    </Link>
                  </td>
                  <td className={td}>{i.rfc}</td>
                  <td className={td}>
                    {i.verified ? (
                      <Badge tone="active">Verificada</Badge>
                    ) : (
                      <Badge tone="pending">Por verificar</Badge>
                    )}
                  </td>
                  <td className={`${td} text-right`}>{i.members}</td>
                  <td className={td}>{formatDateTime(i.createdAt)}</td>
                </tr>
              ))}
            </DataTable>
            <Pager page={data.page} pages={data.pages} total={data.total} />
          </div>
        ) : null}
      </div>
    </>
  );
}
