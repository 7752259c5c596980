import type { ReactNode } from 'react';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import type { SessionUser } from '@/client/lib/auth/session.ts';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { shop } from '@/shared/shop.ts';
import { FiscalProfiles } from '../components/fiscal-profiles.tsx';
import { InstitutionsArea, InvitationScreen } from '../components/institutions-area.tsx';
import { MyAddresses } from '../components/my-addresses.tsx';
import { PasswordForm } from '../components/password-form.tsx';
import { ProfileForm } from '../components/profile-form.tsx';

const menu = [
  { to: '/cuenta', label: 'Perfil', end: true },
  { to: '/cuenta/password', label: 'Contraseña', end: false },
  { to: '/cuenta/domicilio', label: 'Mis direcciones', end: false },
  { to: '/cuenta/fiscales', label: 'Datos fiscales', end: false },
  { to: '/cuenta/instituciones', label: 'Instituciones', end: false },
];

function Panel({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7">
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{description}</p>
      <div className="mt-6">{children}</div>
    </section>
  );
}

function Settings({ user }: { user: SessionUser }) {
  useDocumentTitle(`Ajustes | ${shop.tradeName}`);
  const profile = (
    <Panel title="Perfil" description="Sus datos de contacto.">
      <ProfileForm />
    </Panel>
  );
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Ajustes</h1>
      <p className="mt-1 text-sm text-slate-600">
        {user.nombre} {user.apellidoPat} · <span className="break-all">{user.email}</span>
      </p>
      <div className="mt-6 grid gap-6 md:grid-cols-[220px_1fr]">
        <nav aria-label="Ajustes de la cuenta" className="min-w-0 md:sticky md:top-36 md:self-start">
          <ul className="flex gap-1 overflow-x-auto rounded-xl bg-white p-1.5 shadow-sm ring-1 ring-slate-200 md:flex-col">
            {menu.map((item) => (
              <li key={item.to} className="shrink-0">
                <NavLink
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    `block whitespace-nowrap rounded-lg px-4 py-2.5 text-sm font-medium ${
                      isActive
                        ? 'bg-brand-700 text-white'
                        : 'text-slate-700 hover:bg-brand-50 hover:text-brand-800'
                    }`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0">
          <Routes>
            <Route index element={profile} />
            <Route path="perfil" element={profile} />
            <Route
              path="password"
              element={
                <Panel
                  title="Contraseña"
                  description="Al cambiarla se cierran sus sesiones en otros dispositivos."
                >
                  <PasswordForm email={user.email} />
                </Panel>
              }
            />
            <Route
              path="domicilio"
              element={
                <Panel
                  title="Mis direcciones"
                  description="A donde enviamos sus pedidos: laboratorio, almacén, campus. Sólo enviamos dentro de México."
                >
                  <MyAddresses />
                </Panel>
              }
            />
            <Route
              path="fiscales"
              element={
                <Panel
                  title="Datos fiscales"
                  description="Para facturar sus compras sin escribirlos cada vez. Se revisan con las mismas reglas del SAT que la solicitud de factura."
                >
                  <FiscalProfiles />
                </Panel>
              }
            />
            <Route path="instituciones/*" element={<InstitutionsArea user={user} />} />
            <Route path="*" element={<Navigate to="/cuenta" replace />} />
          </Routes>
        </div>
      </div>
    </div>
  );
}

/** /cuenta/* (spec §2 Account settings): signed-in only, visitors go to /. */
export function Component() {
  return (
    <Routes>
      <Route path="instituciones/invitacion/:token" element={<InvitationScreen />} />
      <Route
        path="*"
        element={<RequireSignedIn visitorTo="/">{(user) => <Settings user={user} />}</RequireSignedIn>}
      />
    </Routes>
  );
}
