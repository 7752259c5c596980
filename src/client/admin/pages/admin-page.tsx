import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, NavLink, Route, Routes } from 'react-router';
import { useLogin, useLoginForm } from '@/client/lib/auth/login.ts';
import { logout } from '@/client/lib/auth/logout.ts';
import { useSession } from '@/client/lib/auth/session.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { NO_PERMISSION } from '@/shared/schemas/admin.ts';
import { shop } from '@/shared/shop.ts';
import { buttonClass } from '../components/admin-ui.tsx';
import { AccountingScreen } from '../screens/accounting-screen.tsx';
import { AuditScreen } from '../screens/audit-screen.tsx';
import { ControlledSalesScreen } from '../screens/controlled-sales-screen.tsx';
import { CustomerDetailScreen, CustomersScreen } from '../screens/customers-screen.tsx';
import { DelayedPaymentsScreen } from '../screens/delayed-payments-screen.tsx';
import { ImportScreen } from '../screens/import-screen.tsx';
import { InstitutionDetailScreen } from '../screens/institution-detail-screen.tsx';
import { InstitutionsScreen } from '../screens/institutions-screen.tsx';
import { InvoicesScreen } from '../screens/invoices-screen.tsx';
import { LowStockScreen } from '../screens/low-stock-screen.tsx';
import { OrderDetailScreen } from '../screens/order-detail-screen.tsx';
import { OrdersScreen } from '../screens/orders-screen.tsx';
import { ProductEditScreen } from '../screens/product-edit-screen.tsx';
import { ProductsScreen } from '../screens/products-screen.tsx';
import { QuotationDetailScreen, QuotationsScreen } from '../screens/quotations-screen.tsx';
import { ReceivablesScreen } from '../screens/receivables-screen.tsx';
import { RefundsScreen } from '../screens/refunds-screen.tsx';
import { ReturnDetailScreen } from '../screens/return-detail.tsx';
import { ReturnsScreen } from '../screens/returns-screen.tsx';
import { SearchScreen } from '../screens/search-screen.tsx';

const NAV = [
  { to: 'pedidos', label: 'Pedidos' },
  { to: 'productos', label: 'Productos' },
  { to: 'por-agotarse', label: 'Por agotarse' },
  { to: 'importar', label: 'Importar catálogo' },
  { to: 'pagos-diferidos', label: 'Pagos diferidos' },
  { to: 'reembolsos', label: 'Reembolsos pendientes' },
  { to: 'devoluciones', label: 'Devoluciones' },
  { to: 'ventas-controladas', label: 'Ventas controladas' },
  { to: 'facturas', label: 'Facturas' },
  { to: 'cuentas-por-cobrar', label: 'Cuentas por cobrar' },
  { to: 'contabilidad', label: 'Contabilidad' },
  { to: 'cotizaciones', label: 'Cotizaciones' },
  { to: 'clientes', label: 'Clientes' },
  { to: 'instituciones', label: 'Instituciones' },
  { to: 'busqueda', label: 'Búsqueda' },
  { to: 'bitacora', label: 'Bitácora' },
];

function SignOutButton({ className = buttonClass.secondary }: { className?: string }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await logout().catch(() => undefined);
        client.clear();
        window.location.assign('/admin');
      }}
    >
      Cerrar sesión
    </button>
  );
}

function StaffSignIn() {
  useDocumentTitle(`Administración — ${shop.tradeName}`);
  const client = useQueryClient();
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useLoginForm();
  const submit = handleSubmit((values) =>
    login.mutate(values, { onSuccess: (data) => client.setQueryData(['session'], { user: data.user }) }),
  );
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-10">
      <div className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{shop.tradeName}</p>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">Administración</h1>
        <p className="mt-1 text-sm text-slate-500">Acceso solo para el personal de la tienda.</p>
        <form className="mt-6 grid gap-4" onSubmit={submit} noValidate>
          <TextField
            label="Correo electrónico"
            type="email"
            autoComplete="username"
            error={errors.username?.message}
            {...register('username')}
          />
          <PasswordField
            label="Contraseña"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          {login.error ? <Alert tone="danger">{login.error.message}</Alert> : null}
          <SubmitButton loading={login.isPending} className="w-full">
            Entrar
          </SubmitButton>
        </form>
        <Link to="/" className="mt-6 block text-center text-sm text-brand-700 hover:underline">
          Volver a la tienda
        </Link>
      </div>
    </div>
  );
}

function NoPermission({ email }: { email: string }) {
  useDocumentTitle(`Administración — ${shop.tradeName}`);
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-100 px-4">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold text-slate-900">{NO_PERMISSION}</h1>
        <p className="mt-2 text-sm text-slate-600">
          La cuenta {email} no es del personal de la tienda. Cierre sesión y entre con una cuenta de personal.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/" className={buttonClass.secondary}>
            Ir a la tienda
          </Link>
          <SignOutButton className={buttonClass.primary} />
        </div>
      </div>
    </div>
  );
}

function Shell({ email }: { email: string }) {
  const link = ({ isActive }: { isActive: boolean }) =>
    `whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition ${
      isActive ? 'bg-white/15 text-white' : 'text-brand-100 hover:bg-white/10 hover:text-white'
    }`;
  return (
    <div className="min-h-screen bg-slate-100 lg:flex">
      <aside className="bg-brand-900 text-white lg:sticky lg:top-0 lg:flex lg:h-screen lg:w-60 lg:shrink-0 lg:flex-col">
        <div className="flex items-center justify-between gap-3 px-4 py-3 lg:block lg:px-5 lg:py-6">
          <Link to="/admin" className="block">
            <span className="block text-xs font-semibold uppercase tracking-wider text-brand-200">
              Administración
            </span>
            <span className="block text-base font-semibold">{shop.tradeName}</span>
          </Link>
          <Link to="/" className="text-xs text-brand-200 hover:text-white lg:mt-2 lg:inline-block">
            Ver tienda ↗
          </Link>
        </div>
        <nav
          aria-label="Secciones"
          className="flex gap-1 overflow-x-auto px-3 pb-3 lg:flex-1 lg:flex-col lg:px-3"
        >
          {NAV.map((item) => (
            // Absolute: a relative link resolved against /admin/pedidos after the sign-in's redirect
            // ('/admin/pedidos/facturas' opened an order 'NaN').
            <NavLink key={item.to} to={`/admin/${item.to}`} className={link}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden border-t border-white/10 px-5 py-4 text-xs text-brand-200 lg:block">
          <p className="truncate" title={email}>
            {email}
          </p>
          <SignOutButton className="mt-2 text-sm font-medium text-white hover:underline" />
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <div className="flex items-center justify-end gap-3 border-b border-slate-200 bg-white px-4 py-2 text-xs text-slate-500 lg:hidden">
          <span className="truncate">{email}</span>
          <SignOutButton className="font-medium text-brand-700" />
        </div>
        <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <Routes>
            <Route index element={<Navigate to="pedidos" replace />} />
            <Route path="pedidos" element={<OrdersScreen />} />
            <Route path="pedidos/:number" element={<OrderDetailScreen />} />
            <Route path="productos" element={<ProductsScreen />} />
            <Route path="productos/nuevo" element={<ProductEditScreen />} />
            <Route path="productos/:code" element={<ProductEditScreen />} />
            <Route path="por-agotarse" element={<LowStockScreen />} />
            <Route path="importar" element={<ImportScreen />} />
            <Route path="pagos-diferidos" element={<DelayedPaymentsScreen />} />
            <Route path="reembolsos" element={<RefundsScreen />} />
            <Route path="devoluciones" element={<ReturnsScreen />} />
            <Route path="devoluciones/:id" element={<ReturnDetailScreen />} />
            <Route path="ventas-controladas" element={<ControlledSalesScreen />} />
            <Route path="facturas" element={<InvoicesScreen />} />
            <Route path="cuentas-por-cobrar" element={<ReceivablesScreen />} />
            <Route path="contabilidad" element={<AccountingScreen />} />
            <Route path="cotizaciones" element={<QuotationsScreen />} />
            <Route path="cotizaciones/:folio" element={<QuotationDetailScreen />} />
            <Route path="clientes" element={<CustomersScreen />} />
            <Route path="clientes/:id" element={<CustomerDetailScreen />} />
            <Route path="instituciones" element={<InstitutionsScreen />} />
            <Route path="instituciones/:id" element={<InstitutionDetailScreen />} />
            <Route path="bitacora" element={<AuditScreen />} />
            <Route path="busqueda" element={<SearchScreen />} />
            <Route path="*" element={<p className="text-slate-600">Esta sección no existe.</p>} />
          </Routes>
        </main>
      </div>
    </div>
  );
}

/** /admin: the staff's own screens, with their own layout; staff sign in here with the shop's sessions. */
export function Component() {
  const { data, isPending, isError } = useSession();
  if (isPending) return <Spinner />;
  if (isError) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Alert tone="danger">No se pudo consultar la sesión. Recargue la página.</Alert>
      </div>
    );
  }
  const user = data?.user ?? null;
  if (!user) return <StaffSignIn />;
  if (user.role !== 'staff') return <NoPermission email={user.email} />;
  return <Shell email={user.email} />;
}
