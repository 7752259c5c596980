import { useNavigate } from 'react-router';
import { AddressForm } from '@/client/account/components/address-form.tsx';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { CheckoutSteps } from '@/client/ui/checkout-steps.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';

/** /envio — step 2 of 3: the shipping address; 'Continuar' saves it and goes to /orden (spec §2). */
export function Component() {
  useDocumentTitle(shopTitle('Datos de domicilio'));
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <CheckoutSteps current={2} />
      <h1 className="mb-1 text-2xl font-semibold text-slate-900 sm:text-3xl">Datos de domicilio</h1>
      <p className="mb-6 text-sm text-slate-600">¿A dónde enviamos su pedido? Enviamos a todo México.</p>
      <RequireSignedIn>
        <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
          <AddressForm submitLabel="Continuar" backTo="/carrito" onSaved={() => navigate('/orden')} />
        </div>
      </RequireSignedIn>
    </div>
  );
}
