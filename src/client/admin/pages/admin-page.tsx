import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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
import { STAFF_ROLE_LABELS, type StaffPermission } from '@/shared/staff-roles.ts';
import { useStaffMe } from '../api/staff.ts';
import { buttonClass } from '../components/admin-ui.tsx';
import { PermissionsProvider, useCan } from '../components/permissions.tsx';
import { AccountingScreen } from '../screens/accounting-screen.tsx';
import { AuditScreen } from '../screens/audit-screen.tsx';
import { ControlledSalesScreen } from '../screens/controlled-sales-screen.tsx';
import { CustomerDetailScreen, CustomersScreen } from '../screens/customers-screen.tsx';
import { DashboardScreen } from '../screens/dashboard-screen.tsx';
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
import { EnrolSecondFactor, VerifySecondFactor } from '../screens/second-factor-screen.tsx';
import { StaffInvitationScreen } from '../screens/staff-invitation-screen.tsx';
import { StaffScreen } from '../screens/staff-screen.tsx';

/** The sections, each shown only to a role that holds its permission (src/shared/staff-roles.ts, decision 064). */
const NAV: { to: string; label: string; permission: StaffPermission }[] = [
  { to: 'tablero', label: 'Tablero', permission: 'tablero.ver' },
  { to: 'pedidos', label: 'Pedidos', permission: 'pedidos.ver' },
  { to: 'productos', label: 'Productos', permission: 'catalogo.ver' },
  { to: 'por-agotarse', label: 'Por agotarse', permission: 'existencias.gestionar' },
  { to: 'importar', label: 'Importar catálogo', permission: 'catalogo.editar' },
  { to: 'pagos-diferidos', label: 'Pagos diferidos', permission: 'pedidos.ver' },
  { to: 'reembolsos', label: 'Reembolsos pendientes', permission: 'dinero.reembolsar' },
  { to: 'devoluciones', label: 'Devoluciones', permission: 'devoluciones.gestionar' },
  { to: 'ventas-controladas', label: 'Ventas controladas', permission: 'controlados.ver' },
  { to: 'facturas', label: 'Facturas', permission: 'facturas.gestionar' },
  { to: 'cuentas-por-cobrar', label: 'Cuentas por cobrar', permission: 'credito.gestionar' },
  { to: 'contabilidad', label: 'Contabilidad', permission: 'facturas.gestionar' },
  { to: 'cotizaciones', label: 'Cotizaciones', permission: 'clientes.gestionar' },
  { to: 'clientes', label: 'Clientes', permission: 'clientes.gestionar' },
  { to: 'instituciones', label: 'Instituciones', permission: 'instituciones.gestionar' },
  { to: 'busqueda', label: 'Búsqueda', permission: 'clientes.gestionar' },
  { to: 'personal', label: 'Personal', permission: 'personal.gestionar' },
  { to: 'bitacora', label: 'Bitácora', permission: 'personal.gestionar' },
];

/** A section the role may not open: said plainly (the server refuses its requests anyway). */
function Allowed({ permission, children }: { permission: StaffPermission; children: ReactNode }) {
  const can = useCan();
  if (can(permission)) return children;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-6 text-sm text-slate-600 shadow-sm">
      <h1 className="text-lg font-semibold text-slate-900">{NO_PERMISSION}</h1>
      <p className="mt-1">Su rol no incluye esta sección. Si la necesita, pídala a un administrador.</p>
    </div>
  );
}

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

function Shell({ email, roleLabel }: { email: string; roleLabel: string }) {
  const can = useCan();
  const permitted = NAV.filter((item) => can(item.permission));
  const guard = (permission: StaffPermission, element: ReactNode) => (
    <Allowed permission={permission}>{element}</Allowed>
  );
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
          {permitted.map((item) => (
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
          <p className="mt-0.5 text-brand-100">{roleLabel}</p>
          <SignOutButton className="mt-2 text-sm font-medium text-white hover:underline" />
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <div className="flex items-center justify-end gap-3 border-b border-slate-200 bg-white px-4 py-2 text-xs text-slate-500 lg:hidden">
          <span className="truncate">
            {email} · {roleLabel}
          </span>
          <SignOutButton className="font-medium text-brand-700" />
        </div>
        <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <Routes>
            <Route index element={<Navigate to="tablero" replace />} />
            <Route path="tablero" element={guard('tablero.ver', <DashboardScreen />)} />
            <Route path="pedidos" element={guard('pedidos.ver', <OrdersScreen />)} />
            <Route path="pedidos/:number" element={guard('pedidos.ver', <OrderDetailScreen />)} />
            <Route path="productos" element={guard('catalogo.ver', <ProductsScreen />)} />
            <Route path="productos/nuevo" element={guard('catalogo.editar', <ProductEditScreen />)} />
            <Route path="productos/:code" element={guard('catalogo.ver', <ProductEditScreen />)} />
            <Route path="por-agotarse" element={guard('existencias.gestionar', <LowStockScreen />)} />
            <Route path="importar" element={guard('catalogo.editar', <ImportScreen />)} />
            <Route path="pagos-diferidos" element={guard('pedidos.ver', <DelayedPaymentsScreen />)} />
            <Route path="reembolsos" element={guard('dinero.reembolsar', <RefundsScreen />)} />
            <Route path="devoluciones" element={guard('devoluciones.gestionar', <ReturnsScreen />)} />
            <Route
              path="devoluciones/:id"
              element={guard('devoluciones.gestionar', <ReturnDetailScreen />)}
            />
            <Route path="ventas-controladas" element={guard('controlados.ver', <ControlledSalesScreen />)} />
            <Route path="facturas" element={guard('facturas.gestionar', <InvoicesScreen />)} />
            <Route path="cuentas-por-cobrar" element={guard('credito.gestionar', <ReceivablesScreen />)} />
            <Route path="contabilidad" element={guard('facturas.gestionar', <AccountingScreen />)} />
            <Route path="cotizaciones" element={guard('clientes.gestionar', <QuotationsScreen />)} />
            <Route
              path="cotizaciones/:folio"
              element={guard('clientes.gestionar', <QuotationDetailScreen />)}
            />
            <Route path="clientes" element={guard('clientes.gestionar', <CustomersScreen />)} />
            <Route path="clientes/:id" element={guard('clientes.gestionar', <CustomerDetailScreen />)} />
            <Route path="instituciones" element={guard('instituciones.gestionar', <InstitutionsScreen />)} />
            <Route
              path="instituciones/:id"
              element={guard('instituciones.gestionar', <InstitutionDetailScreen />)}
            />
            <Route path="bitacora" element={guard('personal.gestionar', <AuditScreen />)} />
            <Route path="personal" element={guard('personal.gestionar', <StaffScreen />)} />
            <Route path="busqueda" element={guard('clientes.gestionar', <SearchScreen />)} />
            <Route path="*" element={<p className="text-slate-600">Esta sección no existe.</p>} />
          </Routes>
        </main>
      </div>
    </div>
  );
}

/**
 * A signed-in staff account: the second factor first (enrol at the first sign-in, then a code each time), then the
 * back office with the sections its role may open.
 */
function StaffGate({ email }: { email: string }) {
  const me = useStaffMe(true);
  if (me.isPending) return <Spinner />;
  if (me.error || !me.data) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Alert tone="danger">
          {me.error?.message ?? 'No se pudo consultar su cuenta. Recargue la página.'}
        </Alert>
        <div className="mt-4">
          <SignOutButton />
        </div>
      </div>
    );
  }
  const signOut = <SignOutButton className="font-medium text-brand-700 hover:underline" />;
  if (me.data.secondFactor === 'enrol') return <EnrolSecondFactor signOut={signOut} />;
  if (me.data.secondFactor === 'verify') return <VerifySecondFactor email={email} signOut={signOut} />;
  return (
    <PermissionsProvider permissions={me.data.permissions}>
      <Shell email={email} roleLabel={me.data.role ? STAFF_ROLE_LABELS[me.data.role] : 'Sin rol'} />
    </PermissionsProvider>
  );
}

/** /admin: the staff's own screens, with their own layout; staff sign in here with the shop's sessions. */
export function Component() {
  return (
    <Routes>
      <Route path="invitacion/:token" element={<StaffInvitationScreen />} />
      <Route path="*" element={<SignedIn />} />
    </Routes>
  );
}

function SignedIn() {
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
  return <StaffGate email={user.email} />;
}
