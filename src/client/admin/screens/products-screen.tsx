import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import { useAdminProducts } from '../api/get-products.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  fieldClass,
  Pager,
  ScreenTitle,
  td,
  th,
} from '../components/admin-ui.tsx';
import { useCan } from '../components/permissions.tsx';

export function ProductsScreen() {
  useDocumentTitle('Productos — Administración');
  const [params, setParams] = useSearchParams();
  const query = {
    q: params.get('q') ?? '',
    status: (params.get('status') ?? 'all') as 'all' | 'active' | 'inactive',
    satKeys: (params.get('claveSat') === 'predeterminada' ? 'fallback' : 'all') as 'all' | 'fallback',
    page: Number(params.get('page') ?? 1) || 1,
  };
  const [q, setQ] = useState(query.q);
  const { data, isPending, error } = useAdminProducts(query);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (q.trim()) next.set('q', q.trim());
    if (query.status !== 'all') next.set('status', query.status);
    if (query.satKeys === 'fallback') next.set('claveSat', 'predeterminada');
    setParams(next);
  };
  const can = useCan();
  return (
    <>
      <ScreenTitle
        title="Productos"
        subtitle="Busque por código, nombre o marca; los inactivos no se muestran en la tienda."
        actions={
          can('catalogo.editar') ? (
            <Link to="/admin/productos/nuevo" className={buttonClass.primary}>
              Nuevo producto
            </Link>
          ) : null
        }
      />
      <form
        onSubmit={apply}
        className="mb-5 flex flex-wrap gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        aria-label="Buscar"
      >
        <input
          className={`${fieldClass} min-w-0 flex-1 basis-56`}
          placeholder="Código, nombre o marca"
          aria-label="Buscar productos"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <select
          className={`${fieldClass} w-auto`}
          aria-label="Estado"
          value={query.status}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            next.delete('page');
            if (e.target.value === 'all') next.delete('status');
            else next.set('status', e.target.value);
            setParams(next);
          }}
        >
          <option value="all">Todos</option>
          <option value="active">Activos</option>
          <option value="inactive">Inactivos</option>
        </select>
        <select
          className={`${fieldClass} w-auto`}
          aria-label="Claves SAT"
          value={query.satKeys}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            next.delete('page');
            if (e.target.value === 'fallback') next.set('claveSat', 'predeterminada');
            else next.delete('claveSat');
            setParams(next);
          }}
        >
          <option value="all">Todas las claves SAT</option>
          <option value="fallback">Con la clave SAT predeterminada</option>
        </select>
        <button type="submit" className={buttonClass.primary}>
          Buscar
        </button>
      </form>
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <>
          <DataTable
            empty={data.items.length === 0 ? 'Ningún producto coincide con la búsqueda.' : null}
            head={
              <tr>
                <th className={th}>
                  <span className="sr-only">Imagen</span>
                </th>
                <th className={th}>Código</th>
                <th className={th}>Nombre</th>
                <th className={th}>Marca</th>
                <th className={th}>Grupo</th>
                <th className={`${th} text-right`}>Precio</th>
                <th className={`${th} text-right`}>Existencia</th>
                <th className={th}>Estado</th>
              </tr>
            }
          >
            {data.items.map((p) => (
              <tr key={p.code} className="hover:bg-slate-50">
                <td className="px-4 py-2">
                  {p.imageUrl ? (
                    <img
                      src={`${p.imageUrl}&w=160`}
                      alt=""
                      className="size-10 rounded border border-slate-200 object-contain"
                      loading="lazy"
                    />
                  ) : (
                    <span className="block size-10 rounded border border-dashed border-slate-300" />
                  )}
                </td>
                <td className={td}>
                  <Link
                    to={`/admin/productos/${encodeURIComponent(p.code)}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    {p.code}
                  </Link>
                </td>
                <td className="min-w-64 px-4 py-3 text-slate-800">
                  {p.name}
                  {p.usesSatFallback ? (
                    <span className="ml-2 text-xs text-amber-700">Sin clave SAT propia</span>
                  ) : null}
                </td>
                <td className={td}>{p.brand ?? '—'}</td>
                <td className={td}>{p.groupName ?? p.groupClas ?? '—'}</td>
                <td className={`${td} text-right tabular-nums`}>{formatMoney(p.priceCents)}</td>
                <td
                  className={`${td} text-right tabular-nums ${p.stock === 0 ? 'font-semibold text-red-700' : ''}`}
                >
                  {p.stock}
                </td>
                <td className={td}>
                  <Badge tone={p.active ? 'active' : 'inactive'}>{p.active ? 'Activo' : 'Inactivo'}</Badge>
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager page={data.page} pages={data.pages} total={data.total} />
        </>
      ) : null}
    </>
  );
}
